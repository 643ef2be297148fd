"""Blind round 25 (b25_13, issue 38): self_attention ported from CS231n assignment 3's
`MultiHeadAttention.forward` (transformer_layers.py: `self.query(query).view(N, S, H, E //
H).transpose(1, 2)`, `torch.matmul(query, key.transpose(2, 3)) / math.sqrt(self.head_dim)`,
`masked_fill(attn_mask == 0, float('-inf'))`, `Y.transpose(1, 2).reshape(N, S, E)`).

Mistakes:
1. self_attention collapses the view and the transpose into one reshape, `reshape(H, S, E //
   H)`, and merges back with `Y.reshape(S, E)` without the transpose: each "head" gets whole
   consecutive rows' values (right with one head).

Grader: at blind time and now, named: heads from a bare reshape, q.reshape(heads, T, d_h), on
no-causal-mask and multi-head-attention; the default-mask check and why-positions' permutation
property give their checklists (the rows mixed between heads make the output depend on row order
and hide the last token from token 0); vit-checkpoint observes the broken self_attention. Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'attention_heads_bare_reshape',
          'multi-head-attention': 'attention_heads_bare_reshape'}
ALIASES = ('attention_not_equivariant',)  # the permutation property's verdict on the split


def self_attention(x, p, heads, causal=False):
    """CS231n MultiHeadAttention.forward (eval mode, no dropout), batch of one."""
    S, E = x.shape
    H = heads
    if E % H != 0:
        raise ValueError(f"embed_dim {E} is not divisible by num_heads {H}")
    head_dim = E // H
    query = (x @ p["Wq"] + p["bq"]).reshape(H, S, E // H)
    key = (x @ p["Wk"] + p["bk"]).reshape(H, S, E // H)
    value = (x @ p["Wv"] + p["bv"]).reshape(H, S, E // H)
    dot_product = np.matmul(query, key.transpose(0, 2, 1)) / math.sqrt(head_dim)
    if causal:
        attn_mask = np.tril(np.ones((S, S)))
        dot_product = np.where(attn_mask == 0, -np.inf, dot_product)
    attention = softmax(dot_product, axis=-1)
    Y = np.matmul(attention, value)
    output = Y.reshape(S, E) @ p["Wo"] + p["bo"]
    return output
