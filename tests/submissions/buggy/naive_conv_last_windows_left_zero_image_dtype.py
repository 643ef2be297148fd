"""Blind round 3 (b3_09, issue 38), cs231n's conv_forward_naive, channels last, with two mistakes in
conv_patch_embed: the window loops run over range(0, H - k, stride) and range(0, W - k, stride)
(the end should be H - k + 1), so the output keeps its right shape but its last row and column of
windows are never computed and stay 0 whenever (H - k) % stride == 0 (always when stride = k
tiles the image); and the output buffer is np.zeros(..., dtype=img.dtype), so an 8-bit (uint8)
image's float results are cut to integers. Both are named together where the uint8 case shows
both, the loops alone where it does not; the property check gives its checklist.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:window_range:conv_patch_embed:windows-range-one-short'
                           '+op:narrowed:conv_patch_embed:result-in-image-dtype'}


def conv_patch_embed(image, K, b, stride):
    """conv_forward_naive, channels last, no padding."""
    img = image if image.ndim == 3 else image[:, :, np.newaxis]
    H, W, C = img.shape
    k, _, _, F = K.shape
    if k > H or k > W:
        raise ValueError("kernel does not fit in the image")
    H_out = (H - k) // stride + 1
    W_out = (W - k) // stride + 1
    out = np.zeros((H_out, W_out, F), dtype=img.dtype)
    for f in range(F):
        for i, y in enumerate(range(0, H - k, stride)):
            for j, x in enumerate(range(0, W - k, stride)):
                out[i, j, f] = np.sum(img[y:y + k, x:x + k, :] * K[:, :, :, f]) + b[f]
    return out
