"""Blind round 28 (b28_13, issue 38): conv_patch_embed ported from DeepMind Sonnet 2
(snt.Conv2D(output_channels, kernel_shape, stride, padding="SAME") and sonnet/src/pad.py same():
k - 1 zeros in total, (k-1)//2 before, k//2 after), NHWC. The student's top-level helper
`_same_pad` is nested in conv_patch_embed here: the builder replaces only the solution's own
definitions.

Mistakes:
1. conv_patch_embed keeps Sonnet's default SAME padding instead of a valid convolution: the
   output is bigger and its windows shifted by (k-1)//2. Right only for k = stride <= 2 on
   tiling sizes; shows for overlapping kernels (k > stride), non-tiling sizes and k = stride >= 3.

Grader: at blind time and now, not named: only kernel-stride's checklist (the patch linear map
is a convolution with kernel P and stride P) on its property; the several-kernels check reports
the shape (expected (3, 4, 2), got (5, 6, 2)) with no hint line, and so does the hidden random
check.
Since session 15 named: the image padded by k - 1 whatever the stride, (k - 1) // 2 before and
k // 2 after (windows.py's Sonnet pad.same): every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:padding:conv_patch_embed:pad-kernel-less-one-end'}


def conv_patch_embed(image, K, b, stride, padding="SAME"):
    def _same_pad(effective_kernel_size):
        """sonnet.pad.same: (before, after) for one spatial dim."""
        return [(effective_kernel_size - 1) // 2, effective_kernel_size // 2]

    x = _as_hwc(image)
    kh, kw, cin, cout = K.shape
    H, W, _ = x.shape
    if kh > H or kw > W:
        raise ValueError("kernel larger than input")
    if padding == "SAME":
        x = np.pad(x, [_same_pad(kh), _same_pad(kw), (0, 0)])
    Hp, Wp, _ = x.shape
    out_h = (Hp - kh) // stride + 1
    out_w = (Wp - kw) // stride + 1
    out = np.empty((out_h, out_w, cout))
    for i in range(out_h):
        for j in range(out_w):
            patch = x[i * stride:i * stride + kh, j * stride:j * stride + kw, :]
            out[i, j] = patch.reshape(-1) @ K.reshape(-1, cout) + b
    return out
