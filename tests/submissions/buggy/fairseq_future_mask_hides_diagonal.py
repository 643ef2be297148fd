"""Blind round 28 (b28_03, issue 38): self_attention ported from fairseq
(fairseq/modules/multihead_attention.py MultiheadAttention.forward: q *= scaling, time-first
view(tgt_len, bsz * num_heads, head_dim).transpose(0, 1), attn_weights += attn_mask;
TransformerDecoder.buffered_future_mask). The student's top-level helpers `_fill_with_neg_inf`
and `_buffered_future_mask` are nested in self_attention here: the builder replaces only the
solution's own definitions.

Mistakes:
1. self_attention's future mask is triu(fill_with_neg_inf(zeros(T, T))) without fairseq's
   diagonal offset 1: every token is hidden from itself too and row 0 is all -inf (nan after the
   softmax). Shows only with causal=True.

Grader: at blind time and now, named: the causal mask hides the diagonal too
(attention_causal_diagonal) on no-causal-mask. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'attention_causal_diagonal'}


def self_attention(x, p, heads, causal=False):
    def _fill_with_neg_inf(t):
        return np.full_like(t, float("-inf"), dtype=float)

    def _buffered_future_mask(dim):
        return np.triu(_fill_with_neg_inf(np.zeros((dim, dim))))

    tgt_len, embed_dim = x.shape
    bsz = 1
    num_heads = heads
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise ValueError("embed_dim must be divisible by num_heads")
    scaling = head_dim ** -0.5

    q = x @ p["Wq"] + p["bq"]
    k = x @ p["Wk"] + p["bk"]
    v = x @ p["Wv"] + p["bv"]
    q = q * scaling

    q = q.reshape(tgt_len, bsz * num_heads, head_dim).transpose(1, 0, 2)
    k = k.reshape(-1, bsz * num_heads, head_dim).transpose(1, 0, 2)
    v = v.reshape(-1, bsz * num_heads, head_dim).transpose(1, 0, 2)
    src_len = k.shape[1]

    attn_weights = np.matmul(q, k.transpose(0, 2, 1))   # (bsz * num_heads, tgt_len, src_len)
    if causal:
        attn_mask = _buffered_future_mask(tgt_len)[:, :src_len]
        attn_weights = attn_weights + attn_mask[None]
    attn_weights_float = softmax(attn_weights, axis=-1)
    attn = np.matmul(attn_weights_float, v)             # (bsz * num_heads, tgt_len, head_dim)
    attn = attn.transpose(1, 0, 2).reshape(tgt_len, embed_dim)
    return attn @ p["Wo"] + p["bo"]
