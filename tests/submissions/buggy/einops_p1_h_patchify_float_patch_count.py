"""Blind round 8 (b8_02, issue 38): patchify written after an einops `rearrange` pattern
(lucidrains' vit-pytorch) with the factors of each side swapped, and a tutorial's float count.

Mistakes:
1. patchify: the pattern is '(p1 h) (p2 w) c -> (h w) (p1 p2 c)' instead of '(h p1) (w p2) c',
   i.e. `image.reshape(P, H // P, P, W // P, C).transpose(1, 3, 0, 2, 4)`: each "patch" takes
   every (H // P)-th row and (W // P)-th column (space-to-depth), not a P x P tile. Shows whenever
   the grid has more than one patch.
2. num_patches: `(H / P) * (W / P)` with true division, a float (196.0; KGPML/Hyperspectral#17).
   Shows always (the value is right, the type is not).

Grader: the float count is named (pixels_over_patch_area). The split is named by the error
model (order.py: an axis split into blocks the other way round, einops' `(p1 h)` for
`(h p1)`), on every patchify check. Round 8
found the grayscale check's checklist wrong ("A 2-D (H, W) image is one channel", though the
code promotes a 2-D image right); it now says how the lecture cuts it.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'pixels_over_patch_area',
          'patchify': 'op:blocks:patchify:H-W-split-swapped'}


def patchify(image, P):
    """The flattened patches of one image: (H, W, C) -> (N, P*P*C); (H, W) is one channel."""
    img = np.asarray(image)
    if img.ndim == 2:
        img = img[..., np.newaxis]
    if img.ndim != 3:
        raise ValueError(f"expected (H, W) or (H, W, C), got {img.shape}")
    H, W, C = img.shape
    num_patches(H, W, P)
    h, w = H // P, W // P
    # rearrange(img, '(p1 h) (p2 w) c -> (h w) (p1 p2 c)', p1=P, p2=P)
    x = img.reshape(P, h, P, w, C)
    x = x.transpose(1, 3, 0, 2, 4)
    return x.reshape(h * w, P * P * C)


def num_patches(H, W, P):
    """Number of non-overlapping P x P patches that tile an H x W image: (H/P)(W/P)."""
    if P <= 0 or H % P != 0 or W % P != 0:
        raise ValueError("Image dimensions must be divisible by the patch size.")
    return (H / P) * (W / P)
