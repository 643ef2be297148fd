"""Blind round 35 (b35_12, issue 38): sahithiankireddy14/CS156B-Chest-X-Ray-Medical-Image-
Diagnosis, src/models/vit_model.py + vit.py (a TensorFlow vit-pytorch port trained from
scratch on chest X-rays): the counting functions in its pair() / ViT.__init__ style (right), and
its answer to the medical question.

Mistakes:
1. ANSWERS["medical"] = "scratch" (the source trains a ViT from scratch on chest X-rays); the
   right option is "pretrained".

Grader: at blind time (2f30801) and now, named: "A from-scratch ViT needs a large image set ..."
on pretrained-or-scratch. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'pretrained-or-scratch': 'medical:scratch'}
CORRECT = ('num_patches', 'patch_dim')


def num_patches(H, W, P):
    """num_patches of ViT.__init__ (image_size and patch_size given as pairs)."""
    def pair(t):
        return t if isinstance(t, tuple) else (t, t)

    image_height, image_width = pair(H)[0], pair(W)[0]
    patch_height, patch_width = pair(P)
    if patch_height <= 0 or patch_width <= 0:
        raise ValueError('Patch size must be positive.')
    if image_height % patch_height != 0 or image_width % patch_width != 0:
        raise ValueError('Image dimensions must be divisible by the patch size.')
    return (image_height // patch_height) * (image_width // patch_width)


def patch_dim(P, C=3):
    """patch_dim = channels * patch_height * patch_width."""
    channels = C
    patch_height = patch_width = P
    return channels * patch_height * patch_width


ANSWERS["medical"] = "scratch"
