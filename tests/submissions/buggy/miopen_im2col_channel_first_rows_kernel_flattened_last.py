"""Blind round 82 (b82_07, issue 38): conv_patch_embed ported from ROCm/MIOpen
`src/Kernels/MLOpenUtilKernels.cl` (Im2Col, then a GEMM). The delivered file's top-level helper
`_to_hwc` is nested in conv_patch_embed here.

Mistakes:
1. conv_patch_embed (line 66 of the file as delivered): the col matrix's rows are in the
   kernel's (c, ky, kx) order (`col_row = c*kh*kw + y*kw + x`), but K (k, k, C, d) is flattened
   with `K.reshape(-1, d)`, (ky, kx, c) order. Right when C == 1 (2-D images too), wrong for
   C > 1.

Grader: at blind time (ee59f1b1) and now, 104/110. Mistake 1 named on kernel-stride ("Each window is
read channel first, (c, p1, p2) ... while the kernel is flattened (p1, p2, c) ... right for one
channel only"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:flattened_apart:conv_patch_embed:windows-K-flattened-apart'}


def conv_patch_embed(image, K, b, stride):
    def _to_hwc(image):
        image = np.asarray(image, dtype=float)
        if image.ndim == 2:
            image = image[..., None]
        if image.ndim != 3:
            raise ValueError("image must be (H, W) or (H, W, C)")
        return image

    im = _to_hwc(image)
    h, w, C = im.shape
    wei_h, wei_w = K.shape[0], K.shape[1]
    if wei_h > h or wei_w > w:
        raise ValueError("kernel larger than image")
    pad_h = pad_w = 0
    out_h = (h + 2 * pad_h - wei_h) // stride + 1
    out_w = (w + 2 * pad_w - wei_w) // stride + 1
    col = np.zeros((C * wei_h * wei_w, out_h * out_w))
    for col_row in range(C * wei_h * wei_w):
        im_x = col_row % wei_w
        im_y = (col_row // wei_w) % wei_h
        im_c = col_row // (wei_w * wei_h)
        for out_y in range(out_h):
            for out_x in range(out_w):
                im_off_h = out_y * stride - pad_h + im_y
                im_off_w = out_x * stride - pad_w + im_x
                if 0 <= im_off_h < h and 0 <= im_off_w < w:
                    col[col_row, out_y * out_w + out_x] = im[im_off_h, im_off_w, im_c]
    wei = K.reshape(-1, K.shape[-1])
    out = col.T @ wei + b
    return out.reshape(out_h, out_w, -1)
