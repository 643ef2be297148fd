"""Blind round 63 (b63_01, issue 38): num_patches and conv_patch_embed ported from
eriklindernoren/ML-From-Scratch `mlfromscratch/deep_learning/layers.py` (Conv2D, image_to_column,
get_im2col_indices). The student's top-level `_to_hwc`, `get_im2col_indices` and
`image_to_column` are nested in conv_patch_embed here: the builder replaces only the solution's
own definitions.

Mistakes:
1. num_patches (line 10 of the file as delivered): `H * W / P ** 2`, a float (196.0 for 224/16).
   Wrong on any tiling input.
2. conv_patch_embed via get_im2col_indices (line 40): `out_width` counted from `height` instead
   of `width`. Wrong only when H != W (wrong shape or values, or IndexError).

Grader: at blind time (edc81c9a) and now, 99/110, both named. Mistake 1 on patch-count's three
value checks ("The number is right but it is a float: HW/P**2 with `/` gives 196.0. A count is an
integer; use `//`."). Mistake 2 on kernel-stride's kernels-and-strides check ("In
`conv_patch_embed`, the columns of the output are counted from H, `(H - k) // stride + 1`, where
`(W - k) // stride + 1` belongs"); its random check observes "right only when H == W" and its
equivalence check gets an observation. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'pixels_over_patch_area',
          'kernel-stride': 'op:window_count:conv_patch_embed:windows-W-count-from-H'}


def num_patches(H, W, P):
    if P <= 0 or H % P != 0 or W % P != 0:
        raise ValueError("patch size must divide the image")
    return H * W / P ** 2


def conv_patch_embed(image, K, b, stride):
    def _to_hwc(image):
        image = np.asarray(image)
        if image.ndim == 2:
            image = image[:, :, np.newaxis]
        if image.ndim != 3:
            raise ValueError("image must be 2-D or 3-D")
        return image

    def get_im2col_indices(images_shape, filter_shape, stride):
        # images_shape = (batch_size, channels, height, width)
        batch_size, channels, height, width = images_shape
        filter_height, filter_width = filter_shape
        out_height = int((height - filter_height) / stride + 1)
        out_width = int((height - filter_width) / stride + 1)

        i0 = np.repeat(np.arange(filter_height), filter_width)
        i0 = np.tile(i0, channels)
        i1 = stride * np.repeat(np.arange(out_height), out_width)
        j0 = np.tile(np.arange(filter_width), filter_height * channels)
        j1 = stride * np.tile(np.arange(out_width), out_height)
        i = i0.reshape(-1, 1) + i1.reshape(1, -1)
        j = j0.reshape(-1, 1) + j1.reshape(1, -1)
        k = np.repeat(np.arange(channels), filter_height * filter_width).reshape(-1, 1)
        return (k, i, j), out_height, out_width

    def image_to_column(images, filter_shape, stride):
        (k, i, j), out_height, out_width = get_im2col_indices(images.shape, filter_shape, stride)
        cols = images[:, k, i, j]
        channels = images.shape[1]
        cols = cols.transpose(1, 2, 0).reshape(filter_shape[0] * filter_shape[1] * channels, -1)
        return cols, out_height, out_width

    image = _to_hwc(image)
    H, W, C = image.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError("kernel larger than image")
    n_filters = K.shape[3]
    X = image.transpose(2, 0, 1)[np.newaxis].astype(float)      # (1, C, H, W)
    X_col, out_height, out_width = image_to_column(X, (k, k), stride)
    # weights as (n_filters, C*k*k), channel-major like the layer's W
    W_col = K.transpose(3, 2, 0, 1).reshape(n_filters, -1)
    output = W_col.dot(X_col) + b.reshape(-1, 1)
    output = output.reshape(n_filters, out_height, out_width)
    return output.transpose(1, 2, 0)

