"""Blind round 73 (b73_08, issue 38): num_patches and num_tokens ported from
maurock/maurock.github.io `blog/vit.md`.

Mistakes:
1. num_patches (line 12 of the file as delivered): `(H // P) ** 2`, the blog's square
   image_size. Right on square images, wrong on non-square ones (8 x 12, P=4: 4 instead of 6).
2. num_tokens (line 17): always `+ 1`, cls_token=False ignored.

Grader: at blind time (6245b55a) and now, 104/110. Mistake 1 named on patch-count ("`W // P` reads
`H` where `W` belongs: in effect `H // P`, a copy of its sibling term"); mistake 2 on token-count
("With cls_token=False there is no [CLS] row"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:sibling:num_patches:W-as-H',
          'token-count': 'cls_always'}


def num_patches(H, W, P):
    # N = (H/patch_size)*(W/patch_size)
    if H % P != 0 or W % P != 0:
        raise ValueError("Image dimensions must be divisible by the patch size.")
    return (H // P) ** 2


def num_tokens(H, W, P, cls_token=True):
    # NumPatches + 1 for the CLS token
    return num_patches(H, W, P) + 1
