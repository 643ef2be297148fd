"""Blind round 38 (b38_03, issue 38): conv_patch_embed ported from a numpy conv2d helper
(code-search file 9951785132: `conv_2d_single_kernel(input_data, kernel, stride)` for "SAME"
padding, `out = np.zeros((h // stride_h, w // stride_w))`, one call per output channel), used
here with no padding.

Mistakes:
1. The output is allocated (H // stride, W // stride, d), the "SAME" padding count, where the
   windows that fit number (H - k) // stride + 1: extra rows and columns holding the bias only
   whenever k != stride or the stride does not tile (5x6 with k = 3, stride 1: (5, 6, d) for
   (3, 4, d)).
2. No ValueError when the kernel is larger than the image: the window loop is just empty and the
   result is the bias (3x3 kernel on a 2-pixel-high image: an array (2, 5, d)).

Grader: at blind time (60400f1), neither named: only checklists ("out[i, j] = sum(...) + b for
every window that fits, with H' = (H - k) // stride + 1 ...", "A 3x3 kernel does not fit in a
2-pixel-high image: raise ValueError.", the generic conv_patch_embed description on the hidden
check). Since port38a both named (dilation.buffer_by_stride, paired by the refusal check with
kernel_fit.kernel_untested): "the output is allocated `np.zeros((H // stride, W // stride, d))`
... the positions no window reaches hold `b` alone" on the several-kernels and hidden checks, and
"2 mistakes at once: (1) ... nothing tests that the kernel fits the image ... (2) ... the output
is allocated `np.zeros((H // stride, W // stride, d))` ..." on the kernel-larger-than-the-image
check. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:kernel_untested:conv_patch_embed:kernel-untested'
                            '+op:buffer_by_stride:conv_patch_embed:windows-buffer-H-over-stride-b-after'}


def conv_patch_embed(image, K, b, stride):
    """conv2d: one conv_2d_single_kernel per output channel, then the bias."""
    image = _as_hwc(image)

    def conv_2d_single_kernel(input_data, kernel, stride):
        # input_data [h, w, c], kernel [k_h, k_w, c], stride [s_h, s_w]
        h, w, _ = input_data.shape
        kernel_h, kernel_w, _ = kernel.shape
        stride_h, stride_w = stride
        out = np.zeros((h // stride_h, w // stride_w))
        for idx_h, i in enumerate(range(0, h - kernel_h + 1, stride_h)):
            for idx_w, j in enumerate(range(0, w - kernel_w + 1, stride_w)):
                window = input_data[i:i + kernel_h, j:j + kernel_w, :]
                out[idx_h, idx_w] = np.sum(window * kernel)
        return out

    h, w = image.shape[:2]
    out_c = K.shape[3]
    if isinstance(stride, int):
        stride_h = stride
        stride_w = stride
    else:
        stride_h, stride_w = stride
    out = np.zeros((h // stride_h, w // stride_w, out_c))
    for n in range(out_c):
        out[:, :, n] = conv_2d_single_kernel(image, K[:, :, :, n], (stride_h, stride_w))
    return out + b
