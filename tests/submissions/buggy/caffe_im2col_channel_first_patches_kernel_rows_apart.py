"""Blind round 24 (b24_06, issue 38): patchify and conv_patch_embed ported from BVLC Caffe
(`im2col_cpu` on a (C, H, W) image: rows (c, kh, kw); `forward_cpu_gemm`, weight @ col_buffer plus
the bias). The student's top-level helper `_im2col` is nested in both functions here: the builder
replaces only the solution's own definitions.

Mistakes:
1. patchify is im2col with kernel and stride P, transposed: each patch flattened (c, p1, p2).
2. conv_patch_embed multiplies im2col's (c, kh, kw) rows by `K.reshape(-1, d)`, whose rows are
   (kh, kw, c): a window's channels and the kernel's rows are flattened apart.

Grader: at blind time and now, both named: the patch flattened channel first on patchify, and
`windows` and `K` flattened each in its own order on kernel-stride; vit-checkpoint observes the
broken patchify. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_channel_first',
          'kernel-stride': 'op:flattened_apart:conv_patch_embed:windows-K-flattened-apart'}


def patchify(image, P):
    def _im2col(data_im, kernel_h, kernel_w, stride_h, stride_w):
        """caffe::im2col_cpu, no padding/dilation: data_im (C, H, W) -> (C*kh*kw, out_h*out_w)."""
        channels, height, width = data_im.shape
        output_h = (height - kernel_h) // stride_h + 1
        output_w = (width - kernel_w) // stride_w + 1
        data_col = np.empty((channels * kernel_h * kernel_w, output_h * output_w), dtype=float)
        row = 0
        for channel in range(channels):
            for kernel_row in range(kernel_h):
                for kernel_col in range(kernel_w):
                    data_col[row] = data_im[channel,
                                            kernel_row:kernel_row + stride_h * (output_h - 1) + 1:stride_h,
                                            kernel_col:kernel_col + stride_w * (output_w - 1) + 1:stride_w].reshape(-1)
                    row += 1
        return data_col

    image = _as_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)
    return _im2col(image.transpose(2, 0, 1), P, P, P, P).T


def conv_patch_embed(image, K, b, stride):
    def _im2col(data_im, kernel_h, kernel_w, stride_h, stride_w):
        """caffe::im2col_cpu, no padding/dilation: data_im (C, H, W) -> (C*kh*kw, out_h*out_w)."""
        channels, height, width = data_im.shape
        output_h = (height - kernel_h) // stride_h + 1
        output_w = (width - kernel_w) // stride_w + 1
        data_col = np.empty((channels * kernel_h * kernel_w, output_h * output_w), dtype=float)
        row = 0
        for channel in range(channels):
            for kernel_row in range(kernel_h):
                for kernel_col in range(kernel_w):
                    data_col[row] = data_im[channel,
                                            kernel_row:kernel_row + stride_h * (output_h - 1) + 1:stride_h,
                                            kernel_col:kernel_col + stride_w * (output_w - 1) + 1:stride_w].reshape(-1)
                    row += 1
        return data_col

    image = _as_hwc(image)
    k = K.shape[0]
    H, W, C = image.shape
    if k > H or k > W:
        raise ValueError(f"kernel {k} is larger than the {H}x{W} image")
    num_output = K.shape[-1]
    col_buffer = _im2col(image.transpose(2, 0, 1), k, k, stride, stride)
    weight = K.reshape(-1, num_output).T                     # (num_output, kernel_dim)
    out = weight @ col_buffer + b[:, None]                   # gemm, then bias * bias_multiplier
    out_h = (H - k) // stride + 1
    out_w = (W - k) // stride + 1
    return out.reshape(num_output, out_h, out_w).transpose(1, 2, 0)
