"""HF's ViTPatchEmbeddings ported from a PIL image, whose size is (width, height): the image is
swapped to (W, H, C) before cutting the patches, so the grid and every patch are transposed."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'linear-patch-embed': 'op:rows_and_columns:linear_patch_embed:image-axes-swapped'}
ALIASES = ('linear_embed_grid_transposed',)  # true of it: its tokens come in column order


def linear_patch_embed(image, W_e, b_e, P):
    pixel_values = np.asarray(image)
    if pixel_values.ndim == 2:
        pixel_values = pixel_values[:, :, None]
    pixel_values = pixel_values.swapaxes(0, 1)        # (width, height, channels), as PIL sizes
    return patchify(pixel_values, P) @ W_e + b_e
