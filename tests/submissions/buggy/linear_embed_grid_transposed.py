"""linear_patch_embed collects the patches itself in a double loop, columns outer and rows inner:
the patches come out numbered top to bottom, then left to right, instead of raster order. It
never calls patchify."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'linear-patch-embed': 'linear_embed_grid_transposed'}


def linear_patch_embed(image, W_e, b_e, P):
    image = np.asarray(image)
    if image.ndim == 2:
        image = image.reshape(image.shape[0], image.shape[1], 1)
    H, W, _ = image.shape
    if H % P or W % P:
        raise ValueError("patch size must divide the image size")
    tokens = []
    for j in range(W // P):          # for each column of patches
        for i in range(H // P):      # go down the rows
            patch = image[i * P:(i + 1) * P, j * P:(j + 1) * P, :]
            tokens.append(patch.reshape(-1) @ W_e + b_e)
    return np.array(tokens)
