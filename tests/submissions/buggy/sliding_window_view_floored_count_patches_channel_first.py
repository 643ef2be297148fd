"""Blind round 73 (b73_04, issue 38): num_patches and patchify ported from
diivanand/100-exercises-to-learn-modern-numpy-and-pytorch
`exercises/06_numpy_idioms/02_sliding_window_view/exercise.py`.

Mistakes:
1. num_patches (line 18 of the file as delivered): `(H // P) * (W // P)`, floored, no ValueError
   for sizes that do not tile (patchify inherits it and drops the border).
2. patchify (line 46): `sliding_window_view(image, (P, P), axis=(0, 1))` gives windows
   (.., C, P, P), reshaped without moving C last: each patch flattened (c, p1, p2). Wrong for
   C > 1 only.

Grader: at blind time (6245b55a) and now, 98/110. Mistake 1 named on patch-count ("Your count is the
floored one, (H // P) * (W // P) ... raise ValueError instead of rounding"); mistake 2 on patchify
("You flattened each patch channel first, (c, p1, p2)"); vit-checkpoint observes patchify. Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'floor_division_count',
          'patchify': 'patchify_channel_first'}


def num_patches(H: int, W: int, P: int) -> int:
    """How many P x P tiles fit in an H x W image."""
    return (H // P) * (W // P)


def patchify(image: np.ndarray, P: int) -> np.ndarray:
    """All P x P patches, (N, P*P*C), as a view where possible."""
    image = np.asarray(image)
    if image.ndim == 2:
        image = image[:, :, None]
    if image.ndim != 3:
        raise ValueError(f"expected a 2-D or 3-D image, got shape {image.shape}")
    H, W, C = image.shape
    # every window, then keep one in P along both spatial axes
    # shape: (H-P+1, W-P+1, C, P, P) -> (H//P, W//P, C, P, P)
    windows = np.lib.stride_tricks.sliding_window_view(image, (P, P), axis=(0, 1))
    tiles = windows[::P, ::P]
    n = num_patches(H, W, P)
    return tiles.reshape(n, -1)
