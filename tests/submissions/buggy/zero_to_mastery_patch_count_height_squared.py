"""Blind round 33 (b33_07, issue 38): num_patches and embed_image ported from Zero to Mastery
"Learn PyTorch for Deep Learning", 08. PyTorch Paper Replicating (learnpytorch.io;
mrdbourke/pytorch-deep-learning, going_modular vision_transformer.py: PatchEmbedding, ViT).
embed_image is right (CORRECT).

Mistakes:
1. num_patches: the tutorial's `num_patches = (img_size * img_size) // patch_size**2` with
   img_size = H: (H/P)^2 instead of (H/P)(W/P); the ValueError checks are right. Right for square
   images only (num_tokens calls it and inherits the mistake).

Grader: at blind time (c4f83ef) and now, named: "`W // P` reads `H` where `W` belongs: `H // P`,
a copy of its sibling term (right only when H == W)" on patch-count; token-count passes with the
grader's num_patches standing in. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:sibling:num_patches:W-as-H'}
CORRECT = ('embed_image',)


def num_patches(H, W, P):
    img_size, patch_size = H, P
    # Make the image size is divisble by the patch size
    if img_size % patch_size != 0 or W % patch_size != 0:
        raise ValueError(f"Image size must be divisible by patch size, image size: {img_size}x{W}, patch size: {patch_size}.")
    num_patches = (img_size * img_size) // patch_size**2
    return num_patches


def embed_image(image, params):
    # Linear projection of patches, flattened to (N, D)
    x_flattened = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    # Create class token and prepend
    class_token = np.asarray(params["cls"]).reshape(1, -1)
    x_flattened_token = np.concatenate((class_token, x_flattened), axis=0)
    # Create position embedding
    x_flattened_token_pos = x_flattened_token + params["pos"]
    return x_flattened_token_pos
