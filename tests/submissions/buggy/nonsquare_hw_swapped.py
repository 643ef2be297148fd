"""Blind round 2 (issue 38), a port with its own mistakes: patchify reshapes the grid as (W//P, P,
H//P, P, C), height and width swapped (right only for square images); num_patches returns
(H//P)**2, assuming a square image. Both named (the grid reshape by order.sizes_swapped).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:sibling:num_patches:W-as-H',
          'patchify': 'op:sizes:patchify:H-and-W-sizes-swapped'}


def num_patches(H, W, P):
    if P <= 0 or H % P or W % P:
        raise ValueError(f"patch size {P} does not tile a {H}x{W} image")
    return (H // P) ** 2


def patchify(image, P):
    image = _as_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)
    x = image.reshape(W // P, P, H // P, P, C)
    x = x.transpose(0, 2, 1, 3, 4)
    return x.reshape(-1, P * P * C)
