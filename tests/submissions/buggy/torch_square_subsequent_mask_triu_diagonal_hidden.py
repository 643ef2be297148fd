"""Blind round 24 (b24_10, issue 38): self_attention ported from PyTorch's
`F.multi_head_attention_forward` (a fused in_proj, `q_scaled = q * math.sqrt(1.0 / head_dim)`,
`baddbmm` with an additive mask) and a hand-written `generate_square_subsequent_mask` as
`np.triu(np.full((T, T), -inf))`.

Mistakes:
1. The causal mask is np.triu with k=0: it hides the diagonal too, so token 0 sees nothing and its
   softmax row is nan.

Grader: at blind time and now, named: the causal mask hides the diagonal on no-causal-mask. Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'attention_causal_diagonal'}


def self_attention(x, p, heads, causal=False):
    tgt_len, embed_dim = x.shape
    head_dim = embed_dim // heads
    if head_dim * heads != embed_dim:
        raise ValueError(f"embed_dim {embed_dim} not divisible by num_heads {heads}")
    in_proj_weight = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1)
    in_proj_bias = np.concatenate([p["bq"], p["bk"], p["bv"]])
    q, k, v = np.split(x @ in_proj_weight + in_proj_bias, 3, axis=-1)
    attn_mask = None
    if causal:
        attn_mask = np.triu(np.full((tgt_len, tgt_len), -np.inf))
    q = q.reshape(tgt_len, heads, head_dim).transpose(1, 0, 2)
    k = k.reshape(tgt_len, heads, head_dim).transpose(1, 0, 2)
    v = v.reshape(tgt_len, heads, head_dim).transpose(1, 0, 2)
    q_scaled = q * math.sqrt(1.0 / float(head_dim))
    if attn_mask is not None:
        attn_output_weights = attn_mask + q_scaled @ k.transpose(0, 2, 1)   # baddbmm
    else:
        attn_output_weights = q_scaled @ k.transpose(0, 2, 1)
    attn_output_weights = softmax(attn_output_weights, axis=-1)
    attn_output = attn_output_weights @ v
    attn_output = attn_output.transpose(1, 0, 2).reshape(tgt_len, embed_dim)
    return attn_output @ p["Wo"] + p["bo"]
