"""Blind round 24 (b24_07, issue 38), its first mistake alone: patchify ported from Hugging
Face's Qwen2-VL image processor (`_preprocess`, merge_size=2): the patches grouped into 2 x 2
merge windows before raster order (where the grid's sides are even), each patch flattened in
the lecture's (p1, p2, c) order.

Mistakes:
1. patchify orders the patches window by window, each 2 x 2 merge window in raster order, the
   windows in raster order: raster order over the grid only when the grid is at most two patches
   wide (or a side is odd, where the port falls back to merge_size 1).

Grader: at blind time no check had a grid four patches wide, so nothing failed for this mistake
alone; the raster-order check has a 2 x 4 grid since session 13.
Since session 16 named (grids.merge_windows: the patches numbered window by window, Qwen2-VL's
merge_size=2, row by row where a grid side is odd): moved to buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:merge_windows:patchify:patches-in-2x2-windows'}


def patchify(image, P, merge_size=2):
    image = np.asarray(image)
    if image.ndim == 2:
        image = image[:, :, None]
    if image.ndim != 3:
        raise ValueError(f"an image is (H, W) or (H, W, C), got shape {image.shape}")
    H, W, C = image.shape
    num_patches(H, W, P)
    grid_h, grid_w = H // P, W // P
    if grid_h % merge_size or grid_w % merge_size:
        merge_size = 1
    patches = image.reshape(grid_h // merge_size, merge_size, P, grid_w // merge_size, merge_size,
                            P, C)
    patches = patches.transpose(0, 3, 1, 4, 2, 5, 6)
    return patches.reshape(grid_h * grid_w, P * P * C)
