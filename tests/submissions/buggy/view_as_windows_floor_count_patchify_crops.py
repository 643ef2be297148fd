"""Blind round 27 (b27_08, issue 38): num_patches and patchify ported from the `patchify` package
on PyPI (patchify.patchify(image, (P, P, C), step=P), built on scikit-image's view_as_windows; the
grid counted as ((H - P) // P + 1) x ((W - P) // P + 1)). The student's top-level helper
`_view_as_windows` is nested in patchify here: the builder replaces only the solution's own
definitions.

Mistakes:
1. num_patches floors: a size P does not tile is counted without its leftover pixels, no
   ValueError.
2. patchify crops the pixels that do not fit (view_as_windows with step P), no ValueError (a
   patch larger than the image still raises).

Grader: at blind time and now, both named: floor division on patch-count; the crop on patchify.
Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'floor_division_count',
          'patchify': 'patchify_floor_crop'}


def num_patches(H, W, P):
    """Patch grid of patchify(image, (P, P), step=P): ((H - P)//P + 1) x ((W - P)//P + 1)."""
    if P <= 0:
        raise ValueError("step must be positive")
    n_rows = (H - P) // P + 1
    n_cols = (W - P) // P + 1
    return n_rows * n_cols


def patchify(image, P):
    def _view_as_windows(arr_in, window_shape, step):
        """skimage.util.view_as_windows, the core of patchify.patchify."""
        arr_in = np.ascontiguousarray(arr_in)
        window_shape = np.array(window_shape)
        step = np.array(step)
        arr_shape = np.array(arr_in.shape)
        if (arr_shape - window_shape < 0).any():
            raise ValueError("`window_shape` is too large")
        slices = tuple(slice(None, None, st) for st in step)
        window_strides = np.array(arr_in.strides)
        indexing_strides = arr_in[slices].strides
        win_indices_shape = ((arr_shape - window_shape) // step) + 1
        new_shape = tuple(list(win_indices_shape) + list(window_shape))
        strides = tuple(list(indexing_strides) + list(window_strides))
        return np.lib.stride_tricks.as_strided(arr_in, shape=new_shape, strides=strides)

    image = _as_hwc(image)
    C = image.shape[2]
    patches = _view_as_windows(image, (P, P, C), step=(P, P, C))   # (nH, nW, 1, P, P, C)
    return patches.reshape(-1, P * P * C).copy()
