"""Blind round 8 (b8_04, issue 38): CS231n-style loops: patchify filling a preallocated patch
matrix, and conv_forward_naive's channels-first conv_patch_embed.

Mistakes:
1. patchify: the (N, P*P*C) matrix is filled at row `i * n_rows + j` instead of
   `i * n_cols + j` (a flat index with the other side's stride). Shows only on non-square patch
   grids with more than one patch row: rows collide and stay zero, or the index runs past the end.
2. conv_patch_embed: computed as `out[f, i, j]` in CS231n's (F, H', W') layout, then returned as
   `out.reshape(H_out, W_out, F)` instead of `out.transpose(1, 2, 0)` (Selen-Suyue/DensePolicy2D#3,
   danielhavir/capsule-network#4). Shows whenever d > 1 and the output has more than one position.

Grader: the flat index is observed (only_square_images: "right when H == W, wrong for a 4 x 6
image ... in 2 of 6 rows"; some_rows_wrong on the random check). The reshape is named on two
kernel-stride checks (op:result_reshaped: "computed with its last axis first (channels first:
(F, H', W') for (H', W', F)) and then reshaped"), the conv-equals-linear checklist on the third.
Since session 15 the flat index is named too (results.flat_index: the grid's rows written at
`i * (H // P) + j` where `i * (W // P) + j` belongs): every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:flat_index:patchify:rows-strided-by-row-count',
          'kernel-stride': 'op:result_reshaped:conv_patch_embed:result-channels-first-reshaped'}


def patchify(image, P):
    """The flattened patches of one image: (H, W, C) -> (N, P*P*C); (H, W) is one channel."""
    image = np.asarray(image)
    if image.ndim == 2:
        image = image[:, :, None]
    elif image.ndim != 3:
        raise ValueError("image must be (H, W) or (H, W, C)")
    H, W, C = image.shape
    if P <= 0 or H % P != 0 or W % P != 0:
        raise ValueError("patch size must divide H and W")
    n_rows, n_cols = H // P, W // P
    patches = np.zeros((n_rows * n_cols, P * P * C), dtype=image.dtype)
    for i in range(n_rows):
        for j in range(n_cols):
            patch = image[i * P:(i + 1) * P, j * P:(j + 1) * P, :]
            patches[i * n_rows + j] = patch.reshape(-1)
    return patches


def conv_patch_embed(image, K, b, stride):
    """Valid (no padding) cross-correlation: (H, W, C), K (k, k, C, d), b (d,) -> (H', W', d)."""
    x = np.asarray(image, dtype=float)
    if x.ndim == 2:
        x = x[:, :, None]
    x = x.transpose(2, 0, 1)          # (C, H, W), as in conv_forward_naive
    w = K.transpose(3, 2, 0, 1)       # (F, C, HH, WW)
    C, H, W = x.shape
    F, _, HH, WW = w.shape
    if HH > H or WW > W:
        raise ValueError("filter larger than the input")
    H_out = 1 + (H - HH) // stride
    W_out = 1 + (W - WW) // stride
    out = np.zeros((F, H_out, W_out))
    for f in range(F):
        for i in range(H_out):
            for j in range(W_out):
                window = x[:, i * stride:i * stride + HH, j * stride:j * stride + WW]
                out[f, i, j] = np.sum(window * w[f]) + b[f]
    return out.reshape(H_out, W_out, F)
