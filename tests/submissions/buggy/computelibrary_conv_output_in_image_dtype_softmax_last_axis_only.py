"""Blind round 59 (b59_07, issue 38): conv_patch_embed and softmax ported from
ARM-software/ComputeLibrary `tests/validation/reference/ConvolutionLayer.cpp` (convolution_layer
with pad 0), `Convolution3d.h` (convolution3d) and `SoftmaxLayer.cpp` (the 2018 softmax_layer).
The student's top-level `_src`, `is_valid_pixel` and `convolution3d` are nested in
conv_patch_embed here: the builder replaces only the solution's own definitions.

Mistakes:
11. conv_patch_embed (line 83 of the file as delivered, and the accumulator, line 62): `dst` is
    created with the input's dtype (`SimpleTensor<T> dst{..., src.data_type()}`), so an integer
    image (uint8) gives a uint8 output, truncated and wrapped. Wrong only for integer images.
12. softmax (lines 108-116): the 2018 reference always normalises over the innermost dimension
    (`cols = shape[0]`, numpy's last axis); `axis` is ignored. Wrong only when `axis` is not the
    last axis (axis=0 on 2-D, axis=1 on 3-D).

Grader: at blind time (528b2ec3) and now, 103/110, both named ("In `conv_patch_embed`, the result
takes `image`'s dtype ... Make the output float."; "In `softmax`, `axis` is taken as its default,
-1, whatever is given."). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:narrowed:conv_patch_embed:result-in-image-dtype',
          'stable-softmax': 'op:default:softmax:axis-as-default'}
ALIASES = ('softmax_wrong_axis',)  # the probability property's verdict on the same axis


def conv_patch_embed(image, K, b, stride):
    """convolution_layer / convolution_layer_nchw with pad 0."""
    def _src(image):
        src = np.asarray(image)
        if src.ndim == 2:
            src = src[:, :, np.newaxis]
        if src.ndim != 3:
            raise ValueError("image must be (H, W) or (H, W, C)")
        return src

    def is_valid_pixel(i, lo, hi):
        return lo <= i < hi

    def convolution3d(src, weights, bias, dst, xi, yi, xo, yo, ofm):
        """One output element: accumulate over every input feature map, add bias, store."""
        height_in, width_in, depth_in = src.shape
        height_weights, width_weights = weights.shape[0], weights.shape[1]
        half_width_weights_start = width_weights // 2
        half_width_weights_end = half_width_weights_start - 1 if width_weights % 2 == 0 else half_width_weights_start
        half_height_weights_start = height_weights // 2
        half_height_weights_end = half_height_weights_start - 1 if height_weights % 2 == 0 else half_height_weights_start

        acc = dst.dtype.type(0)  # Reset accumulator
        for ifm in range(depth_in):
            for yk in range(-half_height_weights_start, half_height_weights_end + 1):
                for xk in range(-half_width_weights_start, half_width_weights_end + 1):
                    if is_valid_pixel(xi + xk, 0, width_in) and is_valid_pixel(yi + yk, 0, height_in):
                        idx = xk + half_width_weights_start
                        idy = yk + half_height_weights_start
                        acc += src[yi + yk, xi + xk, ifm] * weights[idy, idx, ifm, ofm]
        dst[yo, xo, ofm] = acc + bias[ofm]

    src = _src(image)
    height_in, width_in, depth_in = src.shape
    height_weights, width_weights = K.shape[0], K.shape[1]
    if height_weights > height_in or width_weights > width_in:
        raise ValueError("weights larger than the input")
    depth_out = K.shape[3]
    height_out = (height_in - height_weights) // stride + 1
    width_out = (width_in - width_weights) // stride + 1
    dst = np.zeros((height_out, width_out, depth_out), dtype=src.dtype)

    start_xi = (width_weights - 1 + 1) // 2
    start_yi = (height_weights - 1 + 1) // 2
    end_xi = width_out * stride
    end_yi = height_out * stride
    for yi in range(start_yi, start_yi + end_yi, stride):
        for xi in range(start_xi, start_xi + end_xi, stride):
            for ofm in range(depth_out):
                xo = (xi - start_xi) // stride
                yo = (yi - start_yi) // stride
                convolution3d(src, K, b, dst, xi, yi, xo, yo, ofm)
    return dst


def softmax(x, axis=-1):
    """softmax_layer(src, beta=1): find max, regularize, normalize."""
    src = np.asarray(x, dtype=float)
    dst = np.empty(src.shape)
    cols = src.shape[-1] if src.ndim else 1
    upper_dims = src.size // cols
    src_rows = src.reshape(upper_dims, cols)
    dst_rows = dst.reshape(upper_dims, cols)
    for r in range(upper_dims):
        row_max = src_rows[r].max()
        res = np.exp(src_rows[r] - row_max)
        dst_rows[r] = res / res.sum()
    return dst
