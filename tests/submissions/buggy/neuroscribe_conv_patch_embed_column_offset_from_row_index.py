"""Blind round 56 (b56_08, issue 38), recreated: linear_patch_embed and conv_patch_embed from a
NeuroScribe-style numpy port whose layers keep PyTorch's weight layouts: a Linear's (out, in)
(`x @ W.T + b`) and a Conv2d's (out, in, k, k), the latter read from the API's (k, k, C, d)
kernel; the window loop slices the columns with the row index. The round's files are lost:
rebuilt from their description.

Mistakes:
1. `linear_patch_embed` uses `W_e` transposed, `x @ W_e.T`, the (out, in) layout, where the API
   gives W_e as (P*P*C, d): wrong (or a shape error) unless W_e is square and symmetric.
2. `conv_patch_embed` takes window (i, j) as `image[i*stride : i*stride+k, i*stride :
   i*stride+k]`: the column offset is computed from the row index `i` instead of `j`, so every
   output in row i reads the same window, the one on the diagonal. Right only on the diagonal
   windows (i == j): a 1 x 1 output grid agrees, any wider one does not; where the output has
   more rows than columns, the last rows' windows run off the right edge and the matmul raises
   ValueError (the hidden check's tall images).

Grader: at blind time M1 named (op:transpose, "`W_e` is used transposed"), M2 only the checklist
of kernel-stride. Now M2 named by error_model.windows' `offset_from_index`: "In
`conv_patch_embed`, each window's columns start at the row index, `i * stride:i * stride + k`,
where `j * stride:j * stride + k` belongs (`j` replaced by `i` in the columns' slice): every
window of output row i is the one on the diagonal, (i, i), so only the diagonal windows (i ==
j) are right, and where the output has more rows than columns, the windows of the last ones run
off the image's right edge." (On its first try it came paired with "nothing tests that the
kernel fits" from refusals.named_refusal, whose tests the offset alone did not need: such a
test is no longer told, refusal_triples.test_needed.) Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'linear-patch-embed': 'op:transpose:linear_patch_embed/linear:W.T-added',
          'kernel-stride': 'op:window_offset:conv_patch_embed:windows-columns-at-row-index'}


def linear_patch_embed(image, W_e, b_e, P):
    """Patch tokens: a Linear layer's forward, weights stored (out_features, in_features)."""
    x = patchify(image, P)
    return x @ W_e.T + b_e


def conv_patch_embed(image, K, b, stride):
    """Valid cross-correlation, (H, W, C) image, K (k, k, C, d), b (d,) -> (H', W', d)."""
    x = np.asarray(image, dtype=float)
    if x.ndim == 2:
        x = x[:, :, None]
    H, W, C = x.shape
    k = K.shape[0]
    d = K.shape[3]
    if k > H or k > W:
        raise ValueError(f"kernel {k} is larger than the {H}x{W} image")
    out_h = (H - k) // stride + 1
    out_w = (W - k) // stride + 1
    # weights as (out, in * k * k), the conv layer's own layout
    weight = K.transpose(3, 2, 0, 1).reshape(d, -1)
    out = np.zeros((out_h, out_w, d))
    for i in range(out_h):
        for j in range(out_w):
            window = x[i * stride:i * stride + k, i * stride:i * stride + k, :]
            out[i, j] = weight @ window.transpose(2, 0, 1).reshape(-1) + b
    return out
