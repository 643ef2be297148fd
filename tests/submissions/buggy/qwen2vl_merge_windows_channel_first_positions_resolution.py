"""Blind round 24 (b24_07, issue 38): patchify ported from Hugging Face's Qwen2-VL image processor
(`_preprocess`, merge_size=2, on a channel-first (t, temporal_patch_size, C, H, W) tensor), and
ANSWERS["positions"] = "resolution". Its first mistake alone is
tests/submissions/unnamed/qwen2vl_merge_window_patch_order.py.

Mistakes:
1. patchify orders the patches window by window, each 2 x 2 merge window in raster order (where
   both grid sides are even; otherwise merge_size 1, raster order).
2. patchify flattens each patch channel first, (c, p1, p2), as Qwen2-VL does.
3. ANSWERS["positions"] = "resolution".

Grader: at blind time the channel-first flatten was named on patchify (no check had a grid on which
the merge windows show) and "resolution" on why-positions. Now the raster-order check has a 2 x 4
grid, and the flatten is no longer named: the channel-first rewrite does not explain the merge
order's failures, so patchify is only observed ("right for one channel, wrong for an image with 3
channels ... Here it returns the expected values plus the same vector in every row", true of the
arange image only, and "only in 4 of 256 columns" on the hidden random check). why-positions still
names "resolution"; vit-checkpoint observes the broken patchify.
Since session 16 both patchify mistakes are named together (grids.merge_windows and
grids.channels_first, a pair); the hidden random images, whose grids show no window, name the
channel-first flatten alone: moved to buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:merge_windows:patchify:patches-in-2x2-windows'
                        '+op:channels_first:patchify:patch-flattened-channels-first',
          'why-positions': 'positions:resolution'}


def patchify(image, P, merge_size=2):
    image = _as_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)
    grid_t, grid_h, grid_w = 1, H // P, W // P
    if grid_h % merge_size or grid_w % merge_size:
        merge_size = 1
    patches = image.transpose(2, 0, 1)[None, None]       # (t, temporal_patch_size, C, H, W)
    patches = patches.reshape(grid_t, 1, C, grid_h // merge_size, merge_size, P,
                              grid_w // merge_size, merge_size, P)
    patches = patches.transpose(0, 3, 6, 4, 7, 2, 1, 5, 8)
    return patches.reshape(grid_t * grid_h * grid_w, C * 1 * P * P)


ANSWERS["positions"] = "resolution"
