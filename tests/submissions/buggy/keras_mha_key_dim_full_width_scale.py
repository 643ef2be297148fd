"""Blind round 25 (b25_07, issue 38): self_attention ported from Keras 3's `MultiHeadAttention`
as the Keras ViT examples build it, `MultiHeadAttention(num_heads=num_heads,
key_dim=projection_dim)`: `query = ops.multiply(query, 1.0 / math.sqrt(float(self._key_dim)))`,
`ops.einsum("aecd,abcd->acbe", key, query)`, a causal mask from `ops.tril(ops.ones((1, T, S)))`.

Mistakes:
1. self_attention keeps the example's key_dim = d: the scores are scaled by 1/sqrt(d), not
   1/sqrt(d_h) (the same with one head).

Grader: at blind time and now, named: divided by sqrt(d), the model width, instead of sqrt(d_h) on
no-causal-mask (the error model's words), "You scaled by 1/sqrt(d), the model width" on
multi-head-attention; vit-checkpoint observes the broken self_attention. Every mistake named, so
in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(d)',
          'multi-head-attention': 'attention_scale_d'}


def self_attention(x, p, heads, causal=False):
    """Keras MultiHeadAttention._compute_attention, with a batch axis of one as in Keras."""
    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    key_dim = d
    head_size = d // heads
    # (B, T, N, H) as produced by the EinsumDense projections
    query = (x @ p["Wq"] + p["bq"]).reshape(1, T, heads, head_size)
    key = (x @ p["Wk"] + p["bk"]).reshape(1, T, heads, head_size)
    value = (x @ p["Wv"] + p["bv"]).reshape(1, T, heads, head_size)
    query = query * (1.0 / math.sqrt(float(key_dim)))
    attention_scores = np.einsum("aecd,abcd->acbe", key, query)        # (B, N, T, S)
    if causal:
        mask = np.tril(np.ones((1, T, T), dtype="int32"))[:, None]
        attention_scores = attention_scores + (1.0 - mask) * -1e9
    attention_scores = softmax(attention_scores, axis=-1)
    attention_output = np.einsum("acbe,aecd->abcd", attention_scores, value)  # (B, T, N, H)
    return attention_output.reshape(T, d) @ p["Wo"] + p["bo"]
