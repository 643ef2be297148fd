"""Issue 38 (session 32): self_attention ported from a GPT decoder (the mask is part of the
block, so `causal` is read by nothing), its heads cut from the (T, d) projections by a bare
`reshape(heads, T, d_h)` and merged by `reshape(T, d)`, the masked scores filled with -inf.

Mistakes:
1. self_attention: the causal mask applied whatever `causal` says. Wrong with causal=False and
   T > 1.
2. self_attention: the heads split and merged by a bare reshape, no transpose. Wrong with
   heads > 1.

Grader: no-causal-mask's hidden causal check (causal=True: mistake 1 does not show) names
mistake 2 alone ("Your heads come from a bare reshape"), its visible one, whose causal=False
call shows mistake 1 too, both at once (kinds/mistakes.py, `widened`); multi-head-attention's one-head check names
mistake 1, its head-count checks both at once.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'attention_heads_bare_reshape',
          'multi-head-attention': 'attention_causal'}
ALIASES = ('gpt_causal_mask', 'attention_not_equivariant')  # the properties' words for mistake 1


def self_attention(x, p, heads, causal=False):
    """Masked multi-head attention of a GPT block."""
    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    d_h = d // heads
    q = (x @ p["Wq"] + p["bq"]).reshape(heads, T, d_h)
    k = (x @ p["Wk"] + p["bk"]).reshape(heads, T, d_h)
    v = (x @ p["Wv"] + p["bv"]).reshape(heads, T, d_h)
    att = np.matmul(q, np.swapaxes(k, 1, 2)) * (1.0 / math.sqrt(d_h))
    bias = np.tril(np.ones((T, T)))
    att = np.where(bias == 0, -np.inf, att)
    att = softmax(att, axis=-1)
    y = np.matmul(att, v).reshape(T, d)
    return y @ p["Wo"] + p["bo"]
