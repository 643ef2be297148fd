"""Blind round 33 (b33_11, issue 38), with its second mistake fixed: conv_patch_embed ported
from moisestohias/MoisesNNFS (Ideas/Conv.py: a channels-first conv with an as_strided im2col),
with the kernel test the lecture asks for added before the conv (b33_11 itself:
moises_nnfs_conv_asserts_stride_tiles_no_kernel_size_check.py). The source's `conv` is nested.

Mistakes:
1. The source's `assert (W + 2 * pad - WW) % stride == 0, 'width does not work'` (and the
   height's): sizes the stride does not tile raise AssertionError instead of flooring
   (H - k) // stride + 1.

Grader: at blind time (c4f83ef) the visible "several kernels and strides" check showed only the
AssertionError and its traceback, no hint line. Now named on the visible and hidden value
checks: "an image whose rows or columns the stride leaves over (`(H - k) % stride` or `(W - k) %
stride` not 0) is refused (an error is raised for it), where the lecture's floors" (guards.py's
windows-must-fit, weighed by refusals.named_refusal: a guard reproduces a raise of any type).
Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:guarded:conv_patch_embed:windows-must-fit'}


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
    if K.shape[0] > img.shape[0] or K.shape[1] > img.shape[1]:
        raise ValueError('kernel too large')
    x = np.ascontiguousarray(img.transpose(2, 0, 1)[None])        # (N, C, H, W)
    w = np.ascontiguousarray(np.asarray(K, dtype=float).transpose(3, 2, 0, 1))   # (F, C, HH, WW)
    out = conv(x, w, np.asarray(b, dtype=float), stride, 0)       # (N, F, H', W')
    return out[0].transpose(1, 2, 0)                               # (H', W', F)
