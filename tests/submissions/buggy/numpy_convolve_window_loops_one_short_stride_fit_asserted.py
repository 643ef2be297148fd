"""Blind round 36 (b36_15, issue 38): conv_patch_embed ported from a numpy `convolve(image,
filter, stride, pad)` helper with `get_size_out` (channels first inside; get_size_out nested).

Mistakes:
1. The window loops are `range(0, h - h_k, stride)`, one short: the last output row and column
   are never computed and hold only the bias (8x12x3, k=4, s=4; 9x11x3, k=3, s=2).
2. get_size_out asserts `(size_in - k + 2 * p) % s == 0`: a size the stride does not fit raises
   AssertionError where the lecture floors (10x11x3, k=3, s=2 gives (4, 5, d)).

Grader: at blind time (9ebbf4a), neither named: the visible check's checklist "out[i, j] = sum(...)
+ b for every window that fits, with H' = (H - k) // stride + 1 ... a stride that leaves rows or
columns over floors ..., it is not refused", the hidden check "your code raised AssertionError"
with a checklist, the equivalence check the generic "Check both: ..." checklist. Since port36b
both are named as a pair on both call checks: guards.py's "windows-must-fit" with
loops.window_range_bias_after (the loops one short over a zero buffer, the bias added after
them: the last row and column hold `b` alone). The visible check's failed case returned a wrong
value, its raises are other cases': `named_refusal` now tries a guard on the first case that
raised. The equivalence property keeps its checklist. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': ('op:guarded:conv_patch_embed:windows-must-fit'
                           '+op:window_range_bias_after:conv_patch_embed:windows-range-one-short-b-after')}


def conv_patch_embed(image, K, b, stride):
    def get_size_out(size_in, k, s, p):
        assert (size_in - k + 2 * p) % s == 0
        return (size_in - k + 2 * p) // s + 1

    image = _as_hwc(image).astype(float).transpose(2, 0, 1)    # (c, h, w)
    filter = np.asarray(K, dtype=float).transpose(3, 2, 0, 1)  # (f, c, h_k, w_k)
    c, h, w = image.shape
    f, c2, h_k, w_k = filter.shape
    assert c == c2
    if h_k > h or w_k > w:
        raise ValueError(f"kernel {h_k} is larger than the {h}x{w} image")
    filter = np.reshape(filter, (f, c, h_k * w_k))
    filter = np.transpose(filter, (2, 1, 0))                   # (h_k*w_k, c, f)
    h_out = get_size_out(h, h_k, stride, p=0)
    w_out = get_size_out(w, w_k, stride, p=0)
    out = np.zeros((f, h_out, w_out), dtype=image.dtype)

    for i_out, i_in in enumerate(range(0, h - h_k, stride)):
        for j_out, j_in in enumerate(range(0, w - w_k, stride)):
            window = image[:, i_in: i_in + h_k, j_in: j_in + w_k]
            window = np.reshape(window, (1, c, h_k * w_k))
            window = np.transpose(window, (2, 0, 1))           # (h_k*w_k, 1, c)
            window = np.matmul(window, filter)                  # (h_k*w_k, 1, f)
            window = np.squeeze(window, axis=1)
            window = np.sum(window, axis=0)
            out[:, i_out, j_out] = window
    return out.transpose(1, 2, 0) + b
