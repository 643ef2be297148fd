"""conv_patch_embed with windows at range(0, H - k, stride): one output short when they fit."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'conv_last_window_dropped'}


def conv_patch_embed(image, K, b, stride):
    image = _as_hwc(image)
    k = K.shape[0]
    H, W, C = image.shape
    if k > H or k > W:
        raise ValueError(f"kernel {k} is larger than the {H}x{W} image")
    rows = []
    for i in range(0, H - k, stride):
        row = []
        for j in range(0, W - k, stride):
            window = image[i:i + k, j:j + k, :]
            row.append(np.tensordot(window, K, axes=([0, 1, 2], [0, 1, 2])) + b)
        rows.append(row)
    return np.array(rows).reshape(len(rows), -1, K.shape[3])
