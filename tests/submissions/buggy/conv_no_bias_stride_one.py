"""Blind round 2 (issue 38), a port with its own mistakes: conv_patch_embed forgets the bias b;
conv_equivalent answers stride 1 (kernel P, stride 1) instead of stride P.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'conv_bias_forgotten'}
ALIASES = ('conv_equivalent_stride_one',)  # the file's other mistake, named on the same exercise


def conv_patch_embed(image, K, b, stride):
    image = np.asarray(image)
    if image.ndim == 2:
        image = image[:, :, None]
    H, W, C = image.shape
    k, _, _, d = K.shape
    if k > H or k > W:
        raise ValueError(f"kernel {k} is larger than the {H}x{W} image")
    Ho = (H - k) // stride + 1
    Wo = (W - k) // stride + 1
    out = np.zeros((Ho, Wo, d))
    for i in range(Ho):
        for j in range(Wo):
            win = image[i * stride:i * stride + k, j * stride:j * stride + k, :]
            out[i, j] = np.einsum("abc,abcd->d", win, K)
    return out


def conv_equivalent(P):
    return (P, 1)
