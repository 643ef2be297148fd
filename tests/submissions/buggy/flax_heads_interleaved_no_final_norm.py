"""Blind round 4 (b4_08, issue 38), flax style (DenseGeneral to (.., heads, head_dim), einsum
attention), with two mistakes: self_attention splits each projection as reshape(T, d_h, heads),
so head h takes the interleaved columns h, h + heads, ... (the merge uses the same layout: right
with one head, wrong with several); vit_forward leaves out the final LayerNorm (the encoder_norm,
ln_g / ln_b): the [CLS] row goes from the last block straight to the head.

Grader: multi-head-attention names the split (its listed attention_heads_interleaved); the
causal check names it too (heads.heads_interleaved: the split and the merge both (d_h, heads)
per token, one slip; the -1e10 fill hides what -inf hides here). vit_forward's missing final
norm is named.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'attention_heads_interleaved',
          'no-causal-mask': 'op:heads_interleaved:self_attention:heads-interleaved-split-and-merge',
          'vit-forward': 'vit_final_ln_skipped'}


def self_attention(x, p, heads, causal=False):
    """dot_product_attention with einsum, per-head features from DenseGeneral."""
    T, d = x.shape
    if d % heads:
        raise ValueError(f"Memory dimension ({d}) must be divisible by number of heads ({heads}).")
    head_dim = d // heads

    def dense_general(W, b):
        return (x @ p[W] + p[b]).reshape(T, head_dim, heads)   # [T, head_dim, heads]

    query, key, value = dense_general("Wq", "bq"), dense_general("Wk", "bk"), dense_general("Wv", "bv")
    query = query / np.sqrt(head_dim)
    attn_weights = np.einsum('qdh,kdh->hqk', query, key)
    if causal:
        attn_weights = np.where(np.tril(np.ones((T, T), dtype=bool)), attn_weights, -1e10)
    attn_weights = softmax(attn_weights, axis=-1)
    out = np.einsum('hqk,kdh->qdh', attn_weights, value).reshape(T, d)
    return out @ p["Wo"] + p["bo"]


def vit_forward(image, params):
    """VisionTransformer.__call__ with classifier='token'."""
    x = embed_image(image, params)
    for lyr, block in enumerate(params["blocks"]):
        x = encoder_block(x, block, params["heads"])
    x = x[0]
    return x @ params["W_head"] + params["b_head"]
