"""Blind round 73 (b73_10, issue 38): conv_patch_embed ported from nampluskr/mnist-numpy-from-scratch
`src/nn/conv.py` (im2col).

Mistakes:
1. conv_patch_embed (line 79 of the file as delivered): im2col's columns are in (C, k, k) order
   but the kernel is flattened with `K.reshape(-1, out_channels)`, (k, k, C) order. Right for
   1-channel images, wrong for C > 1.
The delivered file's top-level helper im2col is nested in conv_patch_embed here (its `_as_hwc`
is the solution's).

Grader: at blind time (6245b55a) and now, 104/110. Mistake 1 named on kernel-stride ("Each window is
read channel first, (c, p1, p2) ... while the kernel is flattened (p1, p2, c)"). Every mistake
named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:flattened_apart:conv_patch_embed:windows-K-flattened-apart'}


def conv_patch_embed(image, K, b, stride):
    """Valid convolution, 채널 마지막 입력 (H, W, C), 커널 (k, k, C, d)."""
    def im2col(x, kernel_size, stride=1):
        """(C, H, W) → (out_h*out_w, C*K*K) 변환 (convolution 전처리).

        Returns:
            col: (out_h*out_w, C*K*K)
            out_h, out_w: 출력 공간 크기
        """
        C, H, W = x.shape
        K = kernel_size
        out_h = (H - K) // stride + 1
        out_w = (W - K) // stride + 1

        col = np.zeros((C, K, K, out_h, out_w), dtype=x.dtype)
        for kh in range(K):
            kh_max = kh + stride * out_h
            for kw in range(K):
                kw_max = kw + stride * out_w
                col[:, kh, kw, :, :] = x[:, kh:kh_max:stride, kw:kw_max:stride]

        # (C, K, K, out_h, out_w) → (out_h, out_w, C, K, K) → (out_h*out_w, C*K*K)
        col = col.transpose(3, 4, 0, 1, 2).reshape(out_h * out_w, -1)
        return col, out_h, out_w

    x = _as_hwc(image).astype(float)
    k = K.shape[0]
    if k > x.shape[0] or k > x.shape[1]:
        raise ValueError("커널이 이미지보다 큼")
    out_channels = K.shape[-1]
    col_x, out_h, out_w = im2col(x.transpose(2, 0, 1), k, stride)
    col_w = K.reshape(-1, out_channels)          # (C*K*K, out_c)
    out = col_x @ col_w + b                      # (out_h*out_w, out_c)
    return out.reshape(out_h, out_w, out_channels)
