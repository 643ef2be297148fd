"""conv_patch_embed forgets the bias."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'conv_bias_forgotten'}


def conv_patch_embed(image, K, b, stride):
    image = _as_hwc(image)
    k = K.shape[0]
    H, W, _ = image.shape
    if k > H or k > W:
        raise ValueError(f"kernel {k} is larger than the {H}x{W} image")
    # (H-k+1, W-k+1, C, k, k), then (H', W', k, k, C)
    windows = np.lib.stride_tricks.sliding_window_view(image, (k, k), axis=(0, 1))
    windows = windows[::stride, ::stride].transpose(0, 1, 3, 4, 2)
    return np.tensordot(windows, K, axes=([2, 3, 4], [0, 1, 2]))
