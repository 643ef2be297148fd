"""Blind round 47 (b47_02, issue 38): conv_patch_embed and softmax ported from
ramisa2108/CNN-From-Scratch-With-Numpy (layers/convolution.py Convolution.get_sliding_windows and
forward, layers/softmax.py SoftMax.forward), adapted to one (H, W, C) image.

Mistakes:
1. `conv_patch_embed` works in the source's NCHW layout and adds the bias `b` (d,) to the
   (1, d, H', W') result before transposing back, as the source's (oc, 1, 1) bias would be: it
   broadcasts along W', not along d. ValueError when W' != d (and d > 1); wrong values when
   W' == d; right only for d == 1.
2. `softmax` ports the source's `np.sum(ex, axis=0)` as `np.sum(ex, axis=axis)` without
   keepdims: on a (T, T) input each column j is divided by row j's sum; a non-square 2-D input
   raises (broadcast); 1-D input and axis=0 stay right.

Grader: at blind time (a4c32119), mistake 2 named ("In `softmax`, `np.sum(e, axis=axis,
keepdims=True)` is computed without keepdims=True ...") on small examples, overflow and hidden;
mistake 1 only observed: "several kernels and strides" raises the broadcast ValueError at
`... + b` with the `[checklist]` "out[i, j] = sum(...) * K) + b for every window that fits ...",
the equivalence check and the hidden check `[checklist]`s only. Now mistake 1 is named too, on
"several kernels and strides" and the hidden check (bias_layout's `bias_channels_first`: "the
bias `b` ... is added while the result is laid out channels first, (1, d, H', W'), an NCHW batch
of one: numpy lines `b` up with the last axis, the width W' ..."; the broadcast error's message
shows the batch axis); the equivalence check (d = 2, W' = 1) keeps its `[checklist]`. Moved to
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:bias_channels_first:conv_patch_embed:b-added-channels-first-batch-of-one',
          'stable-softmax': 'op:keepdims:softmax:sum.keepdims'}


def conv_patch_embed(image, K, b, stride):
    """Convolution.forward for one image: X (m, c, h, w), W (oc, c, f, f), einsum over the windows."""
    def _get_sliding_windows(X, out_shape, stride, filter_dim):
        """Convolution.get_sliding_windows (no padding): (m, c, out_h, out_w, f, f) view."""
        padded_X = X.copy()
        out_m, out_c, out_h, out_w = out_shape
        stride_m, stride_c, stride_h, stride_w = padded_X.strides
        return np.lib.stride_tricks.as_strided(
            padded_X, (out_m, out_c, out_h, out_w, filter_dim, filter_dim),
            (stride_m, stride_c, stride_h * stride, stride_w * stride, stride_h, stride_w)
        )

    X = _as_hwc(image).transpose(2, 0, 1)[None]     # (1, c, h, w)
    W = np.transpose(K, (3, 2, 0, 1))                # (k, k, C, d) -> (oc, c, f, f)
    m, c, h, w = X.shape
    filter_dim = W.shape[2]
    if filter_dim > h or filter_dim > w:
        raise ValueError(f"kernel {filter_dim} is larger than the {h}x{w} image")

    out_h = (h - filter_dim) // stride + 1
    out_w = (w - filter_dim) // stride + 1

    X_windows = _get_sliding_windows(X, out_shape=(m, c, out_h, out_w), stride=stride, filter_dim=filter_dim)
    Z = np.einsum('mchwij, ocij -> mohw', X_windows, W) + b
    return Z[0].transpose(1, 2, 0)                   # (oc, oh, ow) -> (oh, ow, oc)


def softmax(x, axis=-1):
    """SoftMax.forward: e^(x_i) / sum(e^X), shifted by the max for stability."""
    ex = np.exp(x - np.max(x, axis=axis, keepdims=True))
    sum = np.sum(ex, axis=axis)
    return ex / sum
