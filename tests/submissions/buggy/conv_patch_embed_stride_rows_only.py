"""A numpy convolution loop that steps the rows by the stride but the columns one pixel at a
time (j:j+k, not j*stride:j*stride+k): right for stride 1."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:stride:conv_patch_embed:windows-axis1-unstrided'}


def conv_patch_embed(image, K, b, stride):
    if image.ndim == 2:
        image = image[:, :, None]
    k, _, _, d = K.shape
    H, W, _ = image.shape
    if k > H or k > W:
        raise ValueError("kernel larger than the image")
    Ho, Wo = (H - k) // stride + 1, (W - k) // stride + 1
    out = np.empty((Ho, Wo, d))
    for i in range(Ho):
        for j in range(Wo):
            patch = image[i * stride:i * stride + k, j:j + k]
            out[i, j] = np.einsum("xyc,xycd->d", patch, K) + b
    return out
