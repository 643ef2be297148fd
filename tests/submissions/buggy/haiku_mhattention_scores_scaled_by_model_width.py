"""Blind round 42 (b42_03, issue 38): self_attention ported from the ds_microGPT JAX/Haiku
attention module (code-search file id 3265135900: MhAttention, split_heads / merge_heads,
`score = Q @ jnp.swapaxes(K, -1, -2) / jnp.sqrt(self.d_model)`), with the course's biases.

Mistakes:
1. The scores are scaled by 1/sqrt(d), the model width, not 1/sqrt(d_h). Agrees with one head
   (d_h = d); shows with several.

Grader: at blind time (e77cb46) and now, named: "the scores are divided by sqrt(d) (at your line
`score = Q @ np.swapaxes(K, -1, -2) / np.sqrt(d_model)`), the model width, instead of sqrt(d_h)" on
no-causal-mask's causal checks (generated) and "You scaled by 1/sqrt(d), the model width"
(attention_scale_d) on multi-head-attention; vit-checkpoint observes self_attention. Every mistake
named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(d)',
          'multi-head-attention': 'attention_scale_d'}


def self_attention(x, p, heads, causal=False):
    """MhAttention.__call__ without the batch axis, with the course's biases added."""
    seq, dim = x.shape
    if dim % heads:
        raise ValueError(f"width {dim} is not divisible by {heads} heads")
    d_model = dim
    n_heads = heads

    def split_heads(t, n_heads):
        seq, dim = t.shape
        n_dim = dim // n_heads
        t = t.reshape(seq, n_heads, n_dim)
        return np.transpose(t, (1, 0, 2))

    def merge_heads(t):
        n_heads, seq, n_dim = t.shape
        t = np.transpose(t, (1, 0, 2))
        return t.reshape(seq, n_heads * n_dim)

    Q = x @ p["Wq"] + p["bq"]
    K = x @ p["Wk"] + p["bk"]
    V = x @ p["Wv"] + p["bv"]

    Q = split_heads(Q, n_heads)
    K = split_heads(K, n_heads)
    V = split_heads(V, n_heads)

    score = Q @ np.swapaxes(K, -1, -2) / np.sqrt(d_model)

    if causal:
        mask = np.tril(np.ones((1, seq, seq)))
        score = score - 1e10 * (1.0 - mask)

    weights = softmax(score, axis=-1)
    attn = weights @ V

    merged = merge_heads(attn)
    return merged @ p["Wo"] + p["bo"]
