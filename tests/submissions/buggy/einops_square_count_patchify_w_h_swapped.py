"""Blind round 6 (b6_01, issue 38): num_patches and patchify in the style of lucidrains/vit-pytorch
(`num_patches = (image_height // patch_height) * ...` written as
`(image_size // patch_size) ** 2`, and `Rearrange('b c (h p1) (w p2) -> b (h w) (p1 p2 c)')` done by hand in numpy).

Mistakes:
1. num_patches: returns (H // P) ** 2, assuming a square image. Shows only for non-square images
   (H != W); the ValueError checks are right.
2. patchify: unpacks the shape as `W, H, C = image.shape` (height and width swapped) and cuts the
   grid as reshape(h, P, w, P, C) with h = H // P from the swapped names, i.e. the grid is
   (W//P, P, H//P, P, C) of the real array. Shows only for non-square images (H != W): the patches
   are then not P x P tiles of the image. (Its tiling check num_patches(H, W, P) is symmetric.)

Grader: Both are named: num_patches as `W // P` reading `H` (its sibling term), patchify as the
reshape given H // P and W // P the other way round.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:sibling:num_patches:W-as-H',
          'patchify': 'op:sizes:patchify:H-and-W-sizes-swapped'}


def num_patches(H, W, P):
    """Patches of a square ViT input, as vit-pytorch writes it."""
    if P <= 0 or H % P or W % P:
        raise ValueError(f"patch size {P} does not tile a {H}x{W} image")
    return (H // P) ** 2


def patchify(image, P):
    """'(h p1) (w p2) c -> (h w) (p1 p2 c)' by hand."""
    image = _as_hwc(image)
    W, H, C = image.shape
    if P <= 0 or H % P or W % P:
        raise ValueError(f"patch size {P} does not tile the image")
    h, w = H // P, W // P
    x = image.reshape(h, P, w, P, C)          # (h p1) (w p2) c
    x = np.einsum('apbqc->abpqc', x)          # h w p1 p2 c
    return x.reshape(h * w, P * P * C)
