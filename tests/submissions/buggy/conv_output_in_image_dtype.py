"""Blind round 3 (issue 38): conv_patch_embed as cs231n's conv_forward_naive, channels last, its
output buffer np.zeros(..., dtype=img.dtype): right for float images, while an 8-bit (uint8)
image's float results are cut (and wrapped) to 8-bit integers."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:narrowed:conv_patch_embed:result-in-image-dtype'}


def conv_patch_embed(image, K, b, stride):
    img = image if image.ndim == 3 else image[:, :, np.newaxis]
    H, W, C = img.shape
    k, _, _, F = K.shape
    if k > H or k > W:
        raise ValueError("kernel does not fit in the image")
    H_out = (H - k) // stride + 1
    W_out = (W - k) // stride + 1
    out = np.zeros((H_out, W_out, F), dtype=img.dtype)
    for f in range(F):
        for i, y in enumerate(range(0, H - k + 1, stride)):
            for j, x in enumerate(range(0, W - k + 1, stride)):
                out[i, j, f] = np.sum(img[y:y + k, x:x + k, :] * K[:, :, :, f]) + b[f]
    return out
