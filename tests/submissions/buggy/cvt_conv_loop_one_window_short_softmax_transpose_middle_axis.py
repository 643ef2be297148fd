"""Blind round 19 (b19_14, issue 38): conv_patch_embed and softmax ported from Microsoft's CvT
(`ConvEmbed` as an explicit sliding loop, a softmax moving the axis to the end by transposing).

Mistakes:
1. conv_patch_embed's window loops run `range(0, H - k, stride)` and `range(0, W - k, stride)`:
   one window short whenever (H - k) or (W - k) is a multiple of the stride (always, for kernel =
   stride = P on a tiled image); when k equals H or W no window is left and the reshape raises.
2. softmax handles an axis other than the last by `x.T`, the last axis, then `.T` back: right for
   2-D input and axis 0, wrong for a middle axis of a 3-D array (`.T` reverses every axis).

Grader: at blind time, the missing window was named (conv_last_window_dropped); the
softmax gets only stable-softmax's "sum to 1" checklist (softmax_wrong_axis as a checklist) and the
hidden random check no hint at all. Not every mistake named.
Since session 16 the softmax is named too (op:axis_2d:...:last-or-0: any axis but the last is
taken as axis 0, as `x.T` then `.T` back does), on the hidden random check; the visible sums check
keeps its checklist (softmax_wrong_axis, true of it).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'conv_last_window_dropped', 'stable-softmax': 'op:axis_2d:softmax:last-or-0'}
ALIASES = ('softmax_wrong_axis',)  # the sums property's checklist on the same mistake


def conv_patch_embed(image, K, b, stride):
    x = np.asarray(image)
    if x.ndim == 2:
        x = x[:, :, None]
    H, W, C = x.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError(f"kernel_size {k} larger than input {H}x{W}")
    w = K.reshape(k * k * C, -1)
    rows = []
    for i in range(0, H - k, stride):
        row = []
        for j in range(0, W - k, stride):
            row.append(x[i:i + k, j:j + k, :].reshape(-1) @ w + b)
        rows.append(row)
    return np.array(rows).reshape(len(rows), -1, w.shape[1])


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    last = axis in (-1, x.ndim - 1)
    if not last:
        x = x.T
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    out = e / e.sum(axis=-1, keepdims=True)
    return out if last else out.T
