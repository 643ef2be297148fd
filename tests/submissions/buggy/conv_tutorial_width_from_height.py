"""A numpy convolution tutorial's loop, its output width computed from H (a copy-paste of the
height's line): right on square images, wrong on non-square ones."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:window_count:conv_patch_embed:windows-W-count-from-H'}


def conv_patch_embed(image, K, b, stride):
    if image.ndim == 2:
        image = image[:, :, None]
    k = K.shape[0]
    H, W, C = image.shape
    if k > H or k > W:
        raise ValueError("kernel larger than the image")
    out_h = (H - k) // stride + 1
    out_w = (H - k) // stride + 1
    out = np.zeros((out_h, out_w, K.shape[-1]))
    for i in range(out_h):
        for j in range(out_w):
            window = image[i * stride:i * stride + k, j * stride:j * stride + k, :]
            out[i, j] = np.tensordot(window, K, axes=3) + b
    return out
