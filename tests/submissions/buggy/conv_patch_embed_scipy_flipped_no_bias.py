"""A convolution written from scipy.signal.convolve2d's definition: the kernel is flipped (a
true convolution, not a cross-correlation) and the bias is never added. Two mistakes in one
function."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'conv_bias_forgotten+conv_kernel_flipped'}


def conv_patch_embed(image, K, b, stride):
    if image.ndim == 2:
        image = image[:, :, None]
    k = K.shape[0]
    H, W, C = image.shape
    if k > H or k > W:
        raise ValueError("kernel does not fit")
    flipped = K[::-1, ::-1]
    out_h, out_w = (H - k) // stride + 1, (W - k) // stride + 1
    out = np.zeros((out_h, out_w, K.shape[3]))
    for i in range(out_h):
        for j in range(out_w):
            window = image[i * stride:i * stride + k, j * stride:j * stride + k]
            out[i, j] = np.tensordot(window, flipped, axes=([0, 1, 2], [0, 1, 2]))
    return out
