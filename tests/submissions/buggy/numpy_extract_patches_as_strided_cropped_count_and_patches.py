"""Blind round 43 (b43_06, issue 38): num_patches and patchify ported from a numpy
`extract_patches(img, patch_shape, strides=None)` (code-search file id 23619396431: "Divide
numpy image into non-overlapped patches", `cropped_shape[0] -= cropped_shape[0] %
patch_shape[0]`, `as_strided(img, shape=new_shape, strides=new_strides)`).

Mistakes:
1. num_patches counts the patches of the cropped image, `(H - H % P) // P * (W - W % P) // P`,
   with no ValueError when P does not tile (num_tokens inherits it).
2. patchify crops the leftover rows and columns instead of refusing sizes that do not tile.

Grader: at blind time (b20830f) and now, both named: "You returned (H // P) * (W // P): floor
division silently drops the pixels that do not fit ..." on patch-count (the same value as the
file's cropped count) and "You cropped the pixels that do not fit ..." on patchify. Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'floor_division_count', 'patchify': 'patchify_floor_crop'}


def num_patches(H, W, P):
    """How many patches extract_patches cuts: the cropped sides divided by P."""
    cropped_h = H - H % P
    cropped_w = W - W % P
    return (cropped_h // P) * (cropped_w // P)

def patchify(image, P):
    """extract_patches(img, P), then one row per patch."""
    from numpy.lib.stride_tricks import as_strided
    img = np.ascontiguousarray(image)
    if img.ndim not in (2, 3):
        raise ValueError(f"an image is (H, W) or (H, W, C), got shape {img.shape}")
    patch_shape = [P] * 2
    n_channel = 1 if img.ndim == 2 else img.shape[-1]
    unit = img.strides[-1]
    cropped_shape = list(img.shape)
    cropped_shape[0] -= cropped_shape[0] % patch_shape[0]
    cropped_shape[1] -= cropped_shape[1] % patch_shape[1]
    new_strides = (
        unit * n_channel * img.shape[1] * patch_shape[0],
        unit * n_channel * patch_shape[1],
        unit * n_channel * img.shape[1],
        unit * n_channel,
        unit,
    )
    new_shape = (
        cropped_shape[0] // patch_shape[0],
        cropped_shape[1] // patch_shape[1],
        patch_shape[0],
        patch_shape[1],
        n_channel,
    )
    patches = as_strided(img, shape=new_shape, strides=new_strides)
    return patches.reshape(-1, P * P * n_channel).copy()
