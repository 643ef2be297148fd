"""Blind round 66 (b66_06, issue 38): patchify (via its
im2col), layer_norm and self_attention ported from MarcosAsh/deepseek_like_ai_c (C++:
`src/layers/ad_conv2d.cpp`, `attention.cpp`, `layer_norm.cpp`). The student's top-level
`_im2col` is nested in patchify here: the builder replaces only the solution's own definitions.

Mistakes:
12. patchify (lines 71-73 of the file as delivered): the im2col columns run (c, kh, kw),
    channels first, not (p1, p2, c). Wrong with C > 1 only.
13. self_attention (lines 169-171 and 186): the source's [embed_dim x seq_len] layout,
    `W_q.matmul(input)`, computes `x @ W.T` for Q, K, V and the output. Wrong on any input.
14. layer_norm (lines 154-155): after `swapaxes(-1, -2)` the statistics are taken over axis=0:
    right for a 2-D (T, d) input, over the batch for a (B, T, d) one. Wrong on batched input only.

Grader: at blind time (f4776223), 88/110. Mistake 12 named on patchify ("You flattened
each patch channel first, (c, p1, p2)"), mistake 13 on multi-head-attention and no-causal-mask
("In `self_attention` (in each of the model solution's 4 calls of `linear`), `x @ W` uses `W`
transposed"); mistake 14 only observed then, on layer-norm's hidden check ("Your `layer_norm` is
right for inputs of two axes (T, d), wrong for an input with leading axes (3, 4, 2)"), now
named there (error_model/leading_axes.py): "In `layer_norm`, the mean and variance are taken
over axis 0 of the input with its last two axes swapped, ... for a batch (B, T, d) axis 0 is the
batch, ...". Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_channel_first',
          'layer-norm': 'op:batch_axis:layer_norm:batch-axis',
          'multi-head-attention': 'op:transpose:self_attention/linear*:W.T-added',
          'no-causal-mask': 'op:transpose:self_attention/linear*:W.T-added'}


def patchify(image, P):
    """The flattened patches of one image: (H, W, C) -> (N, P*P*C), via im2col with stride P."""
    def _im2col(img, kH, kW, stride, Hout, Wout):
        # ADConv2D::im2col: rows = output positions, cols ordered (c, kh, kw)
        C, H, W = img.shape
        col = np.zeros((Hout * Wout, C * kH * kW))
        for oh in range(Hout):
            for ow in range(Wout):
                row = oh * Wout + ow
                col_idx = 0
                for c in range(C):
                    for kh in range(kH):
                        for kw in range(kW):
                            ih = oh * stride + kh
                            iw = ow * stride + kw
                            col[row, col_idx] = img[c, ih, iw]
                            col_idx += 1
        return col

    image = _as_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)  # raises ValueError when the patches do not tile
    img = image.transpose(2, 0, 1)  # [C, H, W] like the C++ input
    return _im2col(img, P, P, P, H // P, W // P)


def layer_norm(x, gamma, beta, eps=1e-6):
    """LayerNorm::forward: every column (token) of a [dim x seq_len] tensor normalised over rows."""
    x = np.asarray(x, dtype=float)
    if x.ndim == 1:                                       # a single token: a [dim x 1] tensor
        x = x[None, :]
        return layer_norm(x, gamma, beta, eps)[0]
    inp = np.swapaxes(x, -1, -2)                          # [dim x seq_len]
    rows = inp.shape[0]
    mean = inp.sum(axis=0) / rows
    var = ((inp - mean) ** 2).sum(axis=0) / rows
    inv_std = 1.0 / np.sqrt(var + eps)
    norm = (inp - mean) * inv_std
    out = np.reshape(gamma, (-1, 1)) * norm + np.reshape(beta, (-1, 1))
    return np.swapaxes(out, -1, -2)


def self_attention(x, p, heads, causal=False):
    """MultiHeadAttention::forward on a [embed_dim x q_len] input, returned as (T, d)."""
    T, embed_dim = x.shape
    if embed_dim % heads:
        raise ValueError("embed_dim must be divisible by num_heads")
    head_dim = embed_dim // heads
    inp = x.T                                            # [embed_dim x q_len]
    Q = p["Wq"] @ inp + p["bq"][:, None]                 # W_q.matmul(input)
    K = p["Wk"] @ inp + p["bk"][:, None]
    V = p["Wv"] @ inp + p["bv"][:, None]
    q_len = kv_len = T
    concat_out = np.zeros((embed_dim, q_len))
    for h in range(heads):
        offset = h * head_dim
        score_mat = np.zeros((q_len, kv_len))
        for i in range(q_len):
            for j in range(kv_len):
                s = np.dot(Q[offset:offset + head_dim, i], K[offset:offset + head_dim, j])
                scaled = s / math.sqrt(head_dim)
                if causal and j > i:
                    scaled = -np.inf
                score_mat[i, j] = scaled
        attn_weights = softmax(score_mat, axis=-1)
        concat_out[offset:offset + head_dim, :] = V[offset:offset + head_dim, :] @ attn_weights.T
    output = p["Wo"] @ concat_out + p["bo"][:, None]     # W_o.matmul(concat_out)
    return output.T
