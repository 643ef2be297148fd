"""Blind round 18 (b18_10, issue 38): num_patches and patchify in the style of the Keras 3
example "Vision Transformer for small-size datasets" (patches by sliding_window_view), with a
pandas-style `|` in the tiling check.

Mistakes:
1. num_patches checks `if H % P != 0 | W % P != 0:`: `|` binds tighter than `!=`, so it is the
   chained comparison `(H % P != (0 | W % P)) and (W % P != 0)`: when W tiles and H does not (or both
   leave the same remainder) it returns the floored count instead of raising ValueError.
2. patchify flattens `sliding_window_view(image, (P, P), axis=(0, 1))[::P, ::P]` as it is,
   (gh, gw, C, P, P): the patches come out channel first, (c, p1, p2) (right for one channel).
The student's `_channels_last` (a float cast and the solution's checks) is `_as_hwc` with a float
cast here: the builder replaces only the solution's own definitions.

Grader: at blind time and now, the channel-first flatten named; the tiling check gets a WRONG
named hint (floor_division_count: "You returned (H // P) * (W // P) ... raise ValueError instead of
rounding": the file has the check, defeated by `|`) and a checklist. EXPECT stays honest, so this
fixture's test fails until that hint is no longer given.
Since session 16 (tiling): the `|` is named (tiling.tiling's `bitwise-or`: Python reads `H % P !=
(0 | W % P) != 0`), the listed floor-division hint no longer given: every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:tiling:num_patches:bitwise-or', 'patchify': 'patchify_channel_first'}


def num_patches(H, W, P):
    if H % P != 0 | W % P != 0:
        raise ValueError("image_size must be divisible by patch_size")
    return (H // P) * (W // P)


def patchify(image, P):
    images = np.asarray(_as_hwc(image), dtype="float64")
    height, width, channels = images.shape
    if height % P or width % P:
        raise ValueError("image_size must be divisible by patch_size")
    patches = np.lib.stride_tricks.sliding_window_view(images, (P, P), axis=(0, 1))[::P, ::P]
    num_patches_h, num_patches_w = patches.shape[:2]
    return patches.reshape(num_patches_h * num_patches_w, P * P * channels)
