"""Lab 4 submission, CS231n-style conv_forward_naive and a textbook softmax.

Mistakes (2):
- conv_patch_embed flips the kernel (true convolution, K[::-1, ::-1]) instead of the
  cross-correlation deep-learning layers compute.
- softmax is not numerically stable: exp(x) without subtracting the max overflows near 1000.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'conv_kernel_flipped', 'stable-softmax': 'softmax_without_max'}


def conv_patch_embed(image, K, b, stride):
    """conv_forward_naive for one image, channels last, no padding."""
    image = _as_hwc(image)
    H, W, C = image.shape
    HH, WW, _, F = K.shape
    if HH > H or WW > W:
        raise ValueError(f"kernel {HH} is larger than the {H}x{W} image")
    H_out = 1 + (H - HH) // stride
    W_out = 1 + (W - WW) // stride
    w = K[::-1, ::-1, :, :]          # convolution flips the filter
    out = np.zeros((H_out, W_out, F))
    for f in range(F):
        for i in range(H_out):
            for j in range(W_out):
                hs, ws = i * stride, j * stride
                out[i, j, f] = np.sum(image[hs:hs + HH, ws:ws + WW, :] * w[:, :, :, f]) + b[f]
    return out


def softmax(x, axis=-1):
    """exp(x) / sum(exp(x)) along axis."""
    e = np.exp(x)
    return e / np.sum(e, axis=axis, keepdims=True)
