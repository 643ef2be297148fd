"""Blind round 63 (b63_11, issue 38): conv_patch_embed and softmax ported from tiny-dnn/tiny-dnn
`tiny_dnn/core/kernels/conv2d_op_internal.h` (conv2d_op_internal) and
`tiny_dnn/activations/softmax_layer.h` (softmax_layer::forward_activation). The student's
top-level `_hwc` is nested in conv_patch_embed here: the builder replaces only the solution's own
definitions.

Mistakes:
16. conv_patch_embed (line 55 of the file as delivered): the accumulator `a` allocated in the
    image's dtype. Float images are fine; integer (uint8) images truncate, and the in-place bias
    add raises UFuncTypeError. Wrong only on integer images.
17. softmax (line 78): `alpha = np.max(x)`, the global max, not the max along `axis`. The same
    unless slices differ by more than ~700 (then a slice underflows to 0 / 0 = NaN), e.g. rows
    [0, 1, 2] and [1000, 1001, 1002].

Grader: at blind time (edc81c9a) and now, 106/110, both named. Mistake 16 on kernel-stride's
kernels-and-strides check ("written into a buffer in `image`'s dtype and `b` is added to it in
place ... Make the buffer float."). Mistake 17 on stable-softmax's overflow check ("your values
are the model solution's with `np.max(x, axis=axis, keepdims=True)` taken over the whole array, in
effect `np.max(x, keepdims=True)`"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:bias_in_place:conv_patch_embed:b-added-in-place-in-image-dtype',
          'stable-softmax': 'op:axis:softmax:max.axis=None'}


def conv_patch_embed(image, K, b, stride):
    def _hwc(in_):
        in_ = np.asarray(in_)
        if in_.ndim == 2:
            in_ = in_[:, :, None]
        if in_.ndim != 3:
            raise ValueError("image must be 2-D or 3-D")
        return in_

    in_ = _hwc(image)
    in_height, in_width, in_channels = in_.shape
    weight_height = weight_width = K.shape[0]
    out_channels = K.shape[3]
    if weight_height > in_height or weight_width > in_width:
        raise ValueError("kernel larger than image")
    out_height = (in_height - weight_height) // stride + 1
    out_width = (in_width - weight_width) // stride + 1
    a = np.zeros((out_height, out_width, out_channels), dtype=in_.dtype)
    for o in range(out_channels):
        for inc in range(in_channels):
            pw = K[:, :, inc, o]
            for y in range(out_height):
                for x in range(out_width):
                    ppi = in_[y * stride:y * stride + weight_height, x * stride:x * stride + weight_width, inc]
                    a[y, x, o] += np.sum(pw * ppi)
        a[:, :, o] += b[o]
    return a


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    alpha = np.max(x)
    y = np.exp(x - alpha)
    denominator = np.sum(y, axis=axis, keepdims=True)
    return y / denominator

