"""Blind round 65 (b65_02, issue 38): self_attention and encoder_block ported from
naye971012/numpy_transformer `numpy_functions/commons/multi_head_attention.py`
(Multihead_Attention_np.forward) and `numpy_models/transformer/encoder_block.py`
(transformer_encoder_block_np.forward). The student's top-level `INF_MINUS = -100000` is a local
of self_attention here: the builder replaces only the solution's own definitions.

Mistakes:
2. self_attention (lines 159-161 of the file as delivered, split, and 175, merge): heads split by
   a bare `np.reshape(Q, (heads, T, -1))` and merged by `np.reshape(out, (T, d))`, no transpose:
   each "head" is a block of tokens. Wrong only with heads > 1.
3. encoder_block (lines 188-196): post-LN "add & norm", `LN(x + attn(x))` then `LN(x + mlp(x))`,
   where the lab's block is pre-LN. Wrong on any input.

Grader: at blind time (0cd43d22) and now, 87/110, both named. Mistake 2 on multi-head-attention's
head-count and random checks and no-causal-mask's two causal checks ("Your heads come from a bare
reshape, q.reshape(heads, T, d_h), which mixes the tokens' rows between heads ..."); why-positions'
and no-causal-mask's default-call properties give their checklists (true of the code). Mistake 3
on encoder-block's two checks ("That is a post-LN block (LayerNorm after each residual sum, as in
the 2017 Transformer). ViT is pre-LN ..."); vit-checkpoint observes encoder_block only (its
self_attention is broken too: incomplete, not false). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'attention_heads_bare_reshape',
          'no-causal-mask': 'attention_heads_bare_reshape',
          'why-positions': 'attention_not_equivariant',
          'encoder-block': 'encoder_post_ln'}


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention, after Multihead_Attention_np.forward.

    #Q = [query dim, attention_embed dim]
    #Q = [num_head, query dim, attention_embed dim//num_head]
    """
    INF_MINUS = -100000

    qdim, attdim = x.shape
    if attdim % heads != 0:
        raise ValueError("embed dim should be divisiable by heads")

    Q = np.dot(x, p["Wq"]) + p["bq"]
    K = np.dot(x, p["Wk"]) + p["bk"]
    V = np.dot(x, p["Wv"]) + p["bv"]

    vdim = V.shape[0]
    Q = np.reshape(Q, (heads, qdim, -1))
    K = np.reshape(K, (heads, vdim, -1))
    V = np.reshape(V, (heads, vdim, -1))

    """Actual computation of forward pass"""
    scale = 1 / np.sqrt(Q.shape[-1])

    qk_ones = np.ones((Q.shape[-2], V.shape[-2]))
    mask = np.triu(INF_MINUS * qk_ones, 1) if causal else np.zeros_like(qk_ones)

    #Q@K = [num_head, query dim, value dim]
    QK = Q @ K.swapaxes(-2, -1) * scale + mask  # attention scores
    softQK = softmax(QK)                          # attention weights
    VsoftQK = softQK @ V                          # [num_head, query dim, attention_embed dim//num_head]

    #concat heads = [query dim, attention_embed dim]
    VsoftQK = np.reshape(VsoftQK, (qdim, attdim))
    return VsoftQK @ p["Wo"] + p["bo"]


def encoder_block(x, p, heads):
    """transformer_encoder_block_np.forward: attention, add & norm, feedforward, add & norm."""
    #attention
    out = self_attention(x, p, heads)
    #add & norm
    x = x + out
    x = layer_norm(x, p["ln1_g"], p["ln1_b"])

    #feedforward
    out = gelu(x @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    #add & norm
    x = x + out
    x = layer_norm(x, p["ln2_g"], p["ln2_b"])

    return x
