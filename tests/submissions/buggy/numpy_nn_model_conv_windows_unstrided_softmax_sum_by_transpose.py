"""Blind round 73 (b73_03, issue 38): conv_patch_embed and softmax ported from
AkiRusProd/numpy-nn-model `layers/conv2d.py` (and `layers/layernorm.py`).

Mistakes:
1. conv_patch_embed (line 61 of the file as delivered): the as_strided window strides drop the
   `stride *` factor, `(channel_str, kern_h_str, kern_w_str, ...)`, while H', W' are computed
   with the stride: the right shape, the windows taken at step 1. Wrong for any stride > 1.
2. softmax (line 81): `(e.T / np.sum(e, axis=-1)).T`, the max over `axis` but the sum over the
   last axis only: 3-D input raises a broadcast ValueError, `axis=0` gives wrong values; 2-D
   axis=-1 (what attention uses) is right.

Grader: at blind time (6245b55a) and now, 99/110. Mistake 1 named on kernel-stride ("the stride sets
the output's size but not where each window starts (`i:i + k` where `i * stride:i * stride + k`
belongs)"), in the model solution's code (`windows[::stride, ::stride]`), not the student's
as_strided; mistake 2 on stable-softmax ("is written `(e.T / np.sum(e, axis=-1)).T` ... Reduce
over `axis` with keepdims=True"). The judge found every mistake named but one detail of the
softmax hint wrong: "`axis` is not read (the sum is always over the last axis ...)", where the
max reads `axis` (`np.max(x, axis=axis, ...)`), so along axis 0 the output is not the last axis's
softmax either. Since af73000d the sentence says the step that ignores it: "the sum ignores
`axis` (it is always over the last axis, as if `axis` were -1) ... along another axis the sums
are still the last axis's" (error_model/broadcasts.py; "`axis` is never read" only where no step
reads it, report/fixed_axis.reads). Every mistake named, no hint wrong: in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:stride:conv_patch_embed:windows-unstrided',
          'stable-softmax': 'op:divided_by_transpose:softmax:sum-by-transpose-last-axis'}


def conv_patch_embed(image, K, b, stride):
    X = np.asarray(image, dtype=float)
    if X.ndim == 2:
        X = X[:, :, np.newaxis]
    # (H, W, C) -> (C, H, W), weights (k, k, C, d) -> (d, C, k, k)
    X_data = np.ascontiguousarray(X.transpose(2, 0, 1))
    weight = K.transpose(3, 2, 0, 1)
    in_channels, input_height, input_width = X_data.shape
    out_channels, _, kernel_height, kernel_width = weight.shape
    if kernel_height > input_height or kernel_width > input_width:
        raise ValueError("kernel is larger than the input")

    conv_height = (input_height - kernel_height) // stride + 1
    conv_width = (input_width - kernel_width) // stride + 1

    channel_str, kern_h_str, kern_w_str = X_data.strides
    windows = np.lib.stride_tricks.as_strided(
        X_data,
        (in_channels, conv_height, conv_width, kernel_height, kernel_width),
        (channel_str, kern_h_str, kern_w_str, kern_h_str, kern_w_str)
    )

    O = np.einsum('ihwkl,oikl->ohw', windows, weight)
    O += b[:, None, None]
    return O.transpose(1, 2, 0)


def softmax(x, axis=-1):
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return (e.T / np.sum(e, axis=-1)).T
