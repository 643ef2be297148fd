"""Blind round 31 (b31_10, issue 38): lightly-ai/lightly, lightly/models/utils.py patchify
(`patch_h = patch_w = H // patch_size`, einsum "nchpwq->nhwpqc") for a batch of one image.

Mistakes:
1. patchify: the source assumes a square image (its `assert H == W` was dropped in the port):
   `patch_h = patch_w = H // P`, so any non-square image fails in the reshape with ValueError.
   linear_patch_embed, embed_image and vit_forward inherit it.

Grader: at blind time (fbf6cc7), observed, not named: "[observation] Your `patchify` is right
when H == W, and raises ValueError for a 4 x 6 image: use H and W each where they belong"
(only_square_images). Now named on patchify's RGB, grey and hidden checks:
op:sibling:patchify:W-as-H ("`W // P` reads `H` where `W` belongs"): the rewritten reference
raises numpy's refusal of the same reshape, the same sizes asked in the reference's channels-last
layout, (2,2,2,2,3) for the student's channels-first (1,3,2,2,2,2) (evidence.same_message); the
exercises after it keep their points (the grader's patchify standing in), vit-checkpoint passes
(its image is square).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:sibling:patchify:W-as-H'}


def patchify(image, P):
    """lightly's patchify for a batch of one image: (N, C, H, W) -> (N, num_patches, P**2 * C)."""
    image = _as_hwc(image)
    images = image.transpose(2, 0, 1)[None]          # (N, C, H, W)
    N, C, H, W = images.shape
    if H % P != 0:
        raise ValueError(f"patch size {P} does not tile a {H}x{W} image")

    patch_h = patch_w = H // P
    num_patches = patch_h * patch_w
    patches = images.reshape(N, C, patch_h, P, patch_w, P)
    patches = np.einsum("nchpwq->nhwpqc", patches)
    patches = patches.reshape(N, num_patches, P ** 2 * C)
    return patches[0]
