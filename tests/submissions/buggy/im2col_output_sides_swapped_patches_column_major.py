"""Blind round 8 (b8_15, issue 38): an im2col conv_patch_embed and a Kaggle patch loop that
walks the columns first.

Mistakes:
1. conv_patch_embed: the im2col rows are gathered in raster order, but the result is reshaped
   with the output sides swapped, `out.reshape(out_w, out_h, F)`. Shows only when the output is
   not square (H' != W').
2. patchify: the loop runs over columns outside and rows inside, so the patches come down the
   columns first. Shows whenever the grid has more than one row and more than one column.

Grader: the column order is named (patchify_grid_transposed), and the swapped sides too
(op:result_reshaped: "the result ... is reshaped with its first two sizes the other way round,
(W', H', ...) for (H', W', ...)").
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_grid_transposed',
          'kernel-stride': 'op:result_reshaped:conv_patch_embed:result-sides-swapped-reshaped'}


def conv_patch_embed(image, K, b, stride):
    """Valid (no padding) cross-correlation: (H, W, C), K (k, k, C, d), b (d,) -> (H', W', d)."""
    img = np.asarray(image)
    if img.ndim == 2:
        img = img[:, :, None]
    H, W, C = img.shape
    k, _, _, F = K.shape
    if k > H or k > W:
        raise ValueError("kernel does not fit in the image")
    out_h = (H - k) // stride + 1
    out_w = (W - k) // stride + 1
    cols = []
    for i in range(out_h):
        for j in range(out_w):
            cols.append(img[i * stride:i * stride + k, j * stride:j * stride + k, :].ravel())
    cols = np.array(cols)                 # (out_h * out_w, k * k * C)
    out = cols @ K.reshape(-1, F) + b
    return out.reshape(out_w, out_h, F)


def patchify(image, P):
    """The flattened patches of one image: (H, W, C) -> (N, P*P*C); (H, W) is one channel."""
    image = np.asarray(image)
    if image.ndim == 2:
        image = image[:, :, np.newaxis]
    if image.ndim != 3:
        raise ValueError("image must be 2-D or 3-D")
    H, W, C = image.shape
    if P <= 0 or H % P or W % P:
        raise ValueError("P must divide H and W")
    patches = []
    for j in range(0, W, P):
        for i in range(0, H, P):
            patches.append(image[i:i + P, j:j + P].reshape(-1))
    return np.stack(patches)
