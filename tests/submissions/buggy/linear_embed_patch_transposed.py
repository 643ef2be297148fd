"""linear_patch_embed flattens each patch itself with einsum and swaps the two pixel axes: inside
a patch the pixels go column by column, (p2, p1, c), instead of row by row, (p1, p2, c). It never
calls patchify."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'linear-patch-embed': 'linear_embed_patch_transposed'}


def linear_patch_embed(image, W_e, b_e, P):
    img = np.atleast_3d(np.asarray(image, dtype=float))
    H, W, C = img.shape
    if H % P or W % P:
        raise ValueError(f"{P} does not divide {H}x{W}")
    grid = img.reshape(H // P, P, W // P, P, C)
    patches = np.einsum("ipjqc->ijqpc", grid).reshape(-1, P * P * C)
    return np.einsum("nk,kd->nd", patches, W_e) + b_e
