"""Blind round 30 (b30_08, issue 38): self_attention ported from udlbook/udlbook
(Notebooks/Chap12/12_2_Multihead_Self_Attention.ipynb: softmax_cols, one head at a time,
omega_c @ the concatenated heads). The student's helper `softmax_cols` is nested in
self_attention already.

Mistakes:
1. The scores are built as queries @ keys.T (queries in rows) but softmax_cols normalises axis 0,
   over the queries (the notebook's scores are keys in rows).
2. The output projection has no bias bo (the notebook's omega_c only).

Grader: at blind time and now, named as "2 mistakes at once": "`softmax(scores, axis=-2)` (`axis=1` until round 68) in place
of `softmax(scores)`" and the output bias left out, on multi-head-attention; the two failed
no-causal-mask checks have no hint line (not in EXPECT); vit-checkpoint observes the broken
self_attention. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:axis:self_attention/attention:softmax.axis=-2+op:term:self_attention/linear.4:drop-b'}


def self_attention(x, p, heads, causal=False):
    """Multihead scaled self-attention as in the UDL notebook, one head at a time."""
    def softmax_cols(data_in):
        exp_values = np.exp(data_in - np.max(data_in, axis=0, keepdims=True))
        denom = np.sum(exp_values, axis=0)
        return exp_values / denom

    N, D = x.shape
    if D % heads:
        raise ValueError(f"width {D} is not divisible by {heads} heads")
    D_q = D // heads
    outs = []
    for h in range(heads):
        cols = slice(h * D_q, (h + 1) * D_q)
        queries = p["bq"][cols] + x @ p["Wq"][:, cols]
        keys = p["bk"][cols] + x @ p["Wk"][:, cols]
        values = p["bv"][cols] + x @ p["Wv"][:, cols]
        dot_product = queries @ keys.T
        if causal:
            dot_product = np.where(np.tril(np.ones((N, N), dtype=bool)), dot_product, -np.inf)
        attention = softmax_cols(dot_product / np.sqrt(D_q))
        outs.append(attention @ values)
    return np.concatenate(outs, axis=1) @ p["Wo"]      # omega_c @ concatenated heads
