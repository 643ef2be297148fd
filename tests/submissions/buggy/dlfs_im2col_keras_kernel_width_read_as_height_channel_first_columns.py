"""Blind round 40 (b40_01, issue 38): conv_patch_embed ported from mamahello/Project1
ch7/convolution_forward.py (Deep Learning from Scratch's im2col Convolution.forward, NCHW), with
the kernel taken in the TF/Keras Conv2D layout (kh, kw, C, d). The student's im2col helper is
nested in the function.

Mistakes (both in conv_patch_embed):
1. The output is reshaped `out.reshape(out_h, out_h, -1)`: the height typed where the width
   belongs. Wrong shape, or numpy's reshape ValueError, whenever H' != W'; right when they are
   equal.
2. im2col's columns are ordered (C, kh, kw) (the book's NCHW order) but the kernel is flattened
   `K.reshape(-1, FN)` in (kh, kw, C) order: channels and taps are mismatched for C > 1; right for
   C == 1.

Grader: at blind time (b589706), observed only: kernel-stride's several-kernels check showed the
reshape ValueError with the checklist ("H' = (H - k) // stride + 1 and W' likewise"), the
equivalence check (8x8x3, square) the generic checklist "both read a patch in (p1, p2, c) order
... Check both", the hidden check its checklist. Now (grid_cuts.side_read_twice, with
contractions.flattened_apart) the several-kernels and hidden checks name both in "2 mistakes at
once": "`windows` and `K` are flattened each in its own order ... and multiplied position by
position" and "the result is laid out as `(H', H', d)`: the output's height count H' is used
for its width too, `out.reshape(H', H', -1)`", the reshape's refusal reproduced; the equivalence
check (a property) keeps its checklist. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:flattened_apart:conv_patch_embed:windows-K-flattened-apart'
                            '+op:side_read_twice:conv_patch_embed:result-W-size-from-H'}


def conv_patch_embed(image, K, b, stride):
    """Valid (no padding) cross-correlation: (H, W, C), K (k, k, C, d), b (d,) -> (H', W', d)."""
    x = np.asarray(image, dtype=float)
    if x.ndim == 2:
        x = x[:, :, None]
    x = x.transpose(2, 0, 1)[None]          # (N, C, H, W), as the book's layers take it
    FH, FW, C, FN = K.shape
    N, C, H, W = x.shape
    if FH > H or FW > W:
        raise ValueError(f"kernel {FH}x{FW} is larger than the {H}x{W} image")
    pad = 0
    out_h = (H + 2 * pad - FH) // stride + 1
    out_w = (W + 2 * pad - FW) // stride + 1

    def im2col(input_data, filter_h, filter_w, stride=1, pad=0):
        N, C, H, W = input_data.shape
        out_h = (H + 2 * pad - filter_h) // stride + 1
        out_w = (W + 2 * pad - filter_w) // stride + 1
        img = np.pad(input_data, [(0, 0), (0, 0), (pad, pad), (pad, pad)], 'constant')
        col = np.zeros((N, C, filter_h, filter_w, out_h, out_w))
        for y in range(filter_h):
            y_max = y + stride * out_h
            for x in range(filter_w):
                x_max = x + stride * out_w
                col[:, :, y, x, :, :] = img[:, :, y:y_max:stride, x:x_max:stride]
        col = col.transpose(0, 4, 5, 1, 2, 3).reshape(N * out_h * out_w, -1)
        return col

    col = im2col(x, FH, FW, stride, pad)
    col_W = K.reshape(-1, FN)
    out = np.dot(col, col_W) + b
    out = out.reshape(out_h, out_h, -1)
    return out
