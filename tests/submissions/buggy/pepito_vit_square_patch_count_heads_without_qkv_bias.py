"""Blind round 70 (b70_01, issue 38): num_patches and self_attention (with its per-head
`attention_head`) ported from Pepito79/ViT-from-scratch `VIT/AttentionLayer.py` (and
`VIT/EmbeddingsLayer.py`).

Mistakes:
1. num_patches (line 16 of the file as delivered): `n_patch = H // P; return n_patch ** 2`,
   the source's square `image_size`. Wrong on every non-square image (8x12, P=4 gives 4, not 6).
2. attention_head (lines 107-109), called per head by self_attention: `Q = x @ W_Q` etc., the
   source's `nn.Linear(..., bias=False)`, without bq, bk, bv (bo kept). Wrong whenever the q/k/v
   biases are non-zero, causal or not.

Grader: at blind time (3f040026) and now, 92/110. Mistake 1 named on patch-count ("In
`num_patches`, ... `W // P` reads `H` where `W` belongs: ... `H // P`, a copy of its sibling
term (right only when H == W)"); mistake 2 named on multi-head-attention and no-causal-mask ("In
`self_attention`, q, k and v are projected without their biases: `x @ p['Wq']`, `x @ p['Wk']`,
`x @ p['Wv']`"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:sibling:num_patches:W-as-H',
          'multi-head-attention': 'op:qkv_bias_free:self_attention:qkv-without-bias',
          'no-causal-mask': 'op:qkv_bias_free:self_attention:qkv-without-bias'}


def num_patches(H, W, P):
    if H % P != 0 or W % P != 0:
        raise ValueError("image_size must be divisible by patch_size")
    # number of patches along one side, squared
    n_patch = H // P
    return n_patch ** 2


def self_attention(x, p, heads, causal=False):
    def attention_head(x, W_Q, W_K, W_V, causal=False):
        """AttentionHead.forward (its key, query and value are Linear(..., bias=False))."""
        head_size = W_Q.shape[1]
        # Q(i) = X@W_Q(i): it's a simple linear layer without bias
        Q = x @ W_Q
        K = x @ W_K
        V = x @ W_V
        temp = Q @ K.T  # We need to transpose the matrix
        temp = temp / head_size ** 0.5  # We scale it like in the paper
        if causal:
            T = x.shape[0]
            temp = np.where(np.tril(np.ones((T, T))) == 1, temp, -np.inf)
        temp = softmax(temp, axis=-1)  # We apply the softmax
        return temp @ V

    d_model = x.shape[1]
    if d_model % heads != 0:
        raise ValueError("d_model is not divible by yout n_heads")
    head_size = d_model // heads
    outs = []
    for h in range(heads):
        cols = slice(h * head_size, (h + 1) * head_size)
        outs.append(attention_head(x, p["Wq"][:, cols], p["Wk"][:, cols], p["Wv"][:, cols], causal))
    # Concatenate the output of every head
    h = np.concatenate(outs, axis=1)
    return h @ p["Wo"] + p["bo"]
