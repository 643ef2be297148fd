"""Blind round 33 (b33_11, issue 38): conv_patch_embed ported from moisestohias/MoisesNNFS
(Ideas/Conv.py: a channels-first conv with an as_strided im2col, "Perform an im2col operation by
picking clever strides"). The source's `conv` is nested in conv_patch_embed.

Mistakes:
1. The source's `assert (W + 2 * pad - WW) % stride == 0, 'width does not work'` (and the
   height's): sizes the stride does not tile raise AssertionError instead of flooring
   (H - k) // stride + 1.
2. No ValueError when the kernel is larger than the image: a 3x8x2 image with k=4, stride 1
   returns an empty (0, 5, 4) array (with stride 2 the assert fires instead).

Grader: at blind time (c4f83ef), not named: the visible "several kernels and strides" check
showed only the AssertionError and its traceback, with no hint line; the kernel-larger check its
case's checklist ("A 3x3 kernel does not fit in a 2-pixel-high image: raise ValueError."); the
hidden check the generic checklist. Now named, both at once, on the visible and hidden value
checks: "2 mistakes at once: (1) ... nothing tests that the kernel fits the image ... (2) ... an
image whose rows or columns the stride leaves over (`(H - k) % stride` or `(W - k) % stride` not
0) is refused" (kernel_fit.py's kernel-untested with guards.py's windows-must-fit, weighed by
refusals.named_refusal); the kernel-larger check keeps its case's checklist. Moved to buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:kernel_untested:conv_patch_embed:kernel-untested'
                            '+op:guarded:conv_patch_embed:windows-must-fit'}


def conv_patch_embed(image, K, b, stride):
    def conv(x, w, b, stride, pad):
        N, C = x.shape[-4:-2]
        H, W = x.shape[-2:]
        F, _, HH, WW = w.shape

        # Check dimensions
        assert (W + 2 * pad - WW) % stride == 0, 'width does not work'
        assert (H + 2 * pad - HH) % stride == 0, 'height does not work'

        # Pad the input
        p = pad
        x_padded = np.pad(x, ((0, 0), (0, 0), (p, p), (p, p)), mode='constant')

        # Figure out output dimensions
        H += 2 * pad
        W += 2 * pad
        out_h = (H - HH) // stride + 1
        out_w = (W - WW) // stride + 1

        # Perform an im2col operation by picking clever strides
        shape = (C, HH, WW, N, out_h, out_w)
        strides = (H * W, W, 1, C * H * W, stride * W, stride)
        strides = x.itemsize * np.array(strides)
        x_stride = np.lib.stride_tricks.as_strided(x_padded, shape=shape, strides=strides)
        x_cols = np.ascontiguousarray(x_stride)
        x_cols.shape = (C * HH * WW, N * out_h * out_w)

        # Now all our convolutions are a big matrix multiply
        res = w.reshape(F, -1).dot(x_cols) + b.reshape(-1, 1)

        # Reshape the output
        res.shape = (F, N, out_h, out_w)
        out = res.transpose(1, 0, 2, 3)
        out = np.ascontiguousarray(out)
        return out

    img = np.asarray(image, dtype=float)
    if img.ndim == 2:
        img = img[:, :, None]
    if img.ndim != 3:
        raise ValueError(f"expected an (H, W) or (H, W, C) image, got {img.shape}")
    x = np.ascontiguousarray(img.transpose(2, 0, 1)[None])        # (N, C, H, W)
    w = np.ascontiguousarray(np.asarray(K, dtype=float).transpose(3, 2, 0, 1))   # (F, C, HH, WW)
    out = conv(x, w, np.asarray(b, dtype=float), stride, 0)       # (N, F, H', W')
    return out[0].transpose(1, 2, 0)                               # (H', W', F)
