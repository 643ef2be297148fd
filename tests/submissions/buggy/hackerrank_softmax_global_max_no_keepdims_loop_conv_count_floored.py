"""Blind round 76 (b76_11, issue 38): softmax ported from nelson123-lab/
Hackerrank_solved_problems_solutions `Softmax.py`, conv_patch_embed from apanariello4/lab-vision
`lab_01c.py` (a loop convolution over (H, W, C) with a (kH, kW, iC, oC) kernel).

Mistakes:
1. softmax (line 84 of the file as delivered): `np.exp(x - x.max())` subtracts the whole
   array's max (the source's), and `exps / np.sum(exps, axis=axis)` has no keepdims. Right on
   1-D input and along axis=0 of a 2-D one; a (2, 3) input along the last axis raises numpy's
   broadcast ValueError, a square one is divided column-wise, batched 3-D input raises.
2. conv_patch_embed (lines 58-59): `(H - (kH - 1)) // stride` windows where
   `(H - kH) // stride + 1` belongs: right for stride 1, one window short whenever
   (H - kH) % stride is not stride - 1 (every stride-P tiling: 4 x 4, k = 2, s = 2 gives 1 x 1).

Grader: at blind time (fe8b70f1) 92/110, mistake 2 named on kernel-stride ("the number of window
positions is computed as `(H - k + 1) // stride` where `(H - k) // stride + 1` belongs"); on
stable-softmax "no overflow near 1000" only "One slip, at one or more of these places ...: (1)
... `np.max(x, axis=axis, keepdims=True)` is computed without keepdims=True ... (2) ...
`np.sum(e, ...)` ... without keepdims=True", whose place (1) the code does not have (its max
has no axis): a wrong hint, so not a fixture then. Now (error_model/plain_forms.py, and
kinds/mistakes.py weighing such a slip on the function's other failed cases) the small-examples
and hidden checks say "2 mistakes at once: (1) ... `np.max(x, axis=axis, keepdims=True)` taken
over the whole array ... (2) ... `np.sum(e, axis=axis, keepdims=True)` is computed without
keepdims=True", and "no overflow near 1000" the sum's keepdims alone. Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:window_count_floored:conv_patch_embed:windows-count-floored',
          'stable-softmax': 'op:axis:softmax:max.axis=None+op:keepdims:softmax:sum.keepdims'}


def conv_patch_embed(image, K, b, stride):
    # input (H, W, C), kernel (kH, kW, iC, oC)
    input = np.asarray(image, dtype=float)
    if input.ndim == 2:
        input = input[:, :, np.newaxis]
    H, W, iC = input.shape
    kH, kW, _, oC = K.shape
    if kH > H or kW > W:
        raise ValueError("kernel is larger than the image")
    out_h = (H - (kH - 1)) // stride
    out_w = (W - (kW - 1)) // stride
    out = np.zeros((out_h, out_w, oC))
    for c in range(oC):
        for h in range(out_h):
            for w in range(out_w):
                hs, ws = h * stride, w * stride
                out[h, w, c] = np.sum(input[hs:hs + kH, ws:ws + kW, :] * K[:, :, :, c]) + b[c]
    return out


def softmax(x, axis=-1):
    # Numerically stable with large exponentials
    exps = np.exp(x - x.max())
    return exps / np.sum(exps, axis=axis)
