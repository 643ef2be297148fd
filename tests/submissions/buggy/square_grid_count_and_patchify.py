"""Blind round 5 (b5_01, issue 38): counts and patchify written the lucidrains vit-pytorch way
(`num_patches = (image_size // patch_size) ** 2`, one grid side for both axes).

Mistakes:
1. num_patches: returns (H // P) ** 2, the number for a square image of side H; the tiling test
   is right. Shows only on non-square images (224x160, P=16 gives 196, not 140).
2. patchify: computes the grid side n = H // P once and reshapes to (n, P, n, P, C); on a
   non-square image the reshape raises numpy's ValueError ("cannot reshape"), on a square one
   it is right. Shows only on non-square images.

Grader: Both are named: W // P reads H, in num_patches and in patchify.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:sibling:num_patches:W-as-H', 'patchify': 'op:sibling:patchify:W-as-H'}


def num_patches(H, W, P):
    """Number of P x P patches: (image_size // patch_size) ** 2, ValueError when they do not tile."""
    if P <= 0 or H % P or W % P:
        raise ValueError(f"patch size {P} does not tile a {H}x{W} image")
    grid = H // P
    return grid ** 2


def patchify(image, P):
    """(H, W, C) -> (N, P*P*C), as rearrange('(h p1) (w p2) c -> (h w) (p1 p2 c)')."""
    image = _as_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)
    n = H // P                       # patches per side
    x = image.reshape(n, P, n, P, C)
    x = x.transpose(0, 2, 1, 3, 4)
    return x.reshape(n * n, P * P * C)
