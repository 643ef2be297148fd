"""Blind round 76 (b76_11, issue 38): softmax ported from
nelson123-lab/Hackerrank_solved_problems_solutions `Softmax.py` and conv_patch_embed from
apanariello4/lab-vision `lab_01c.py`.

Mistakes:
1. softmax (line 84 of the file as delivered): `exps / np.sum(exps, axis=axis)` with no
   keepdims, after a global max subtraction (`x.max()`, from the source). 1-D input is right;
   2-D input along axis=-1 raises a broadcasting ValueError for (3, 5) and is silently divided
   column-wise for a square (4, 4); batched 3-D input raises; axis=0 on 2-D happens to be right.
   self_attention and everything above it inherit it (square scores: wrong with no error).
2. conv_patch_embed (lines 58-59): the output size `(H - (k-1)) // stride` instead of
   `(H-k)//stride + 1`. Right for stride 1, drops the last row/column when `(H-k) % stride == 0`,
   every stride=P tiling among them (4x4, k=2, s=2 gives 1x1).

Grader: at blind time (fe8b70f1) and now, 92/110. Mistake 2 named on kernel-stride ("computed as
`(H - k + 1) // stride` where `(H - k) // stride + 1` belongs"). Mistake 1 partly: stable-softmax's
"no overflow near 1000" was told "One slip, at one or more of these places ...: (1)...
`np.max(...)` computed without keepdims ... (2)... `np.sum(e, axis=axis, keepdims=True)`
computed without keepdims", part (2) right and part (1) judged WRONG: the code's max is the
global `x.max()`, a scalar with no axis that does not broadcast wrongly, and the max should be
taken along `axis` (a fix is being made as this is written); its other checks get checklists.
Not every mistake named (and a hint wrong), so in unnamed/; EXPECT holds what must hold today:
the points lost, the mistakes named.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:window_count_floored:conv_patch_embed:windows-count-floored',
          'stable-softmax': None}


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
