"""A from-scratch attention with a copy-paste slip: the keys are computed with the query's
weights, x @ Wq + bk."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:parameter:self_attention:Wk-as-Wq',
          'no-causal-mask': 'op:parameter:self_attention:Wk-as-Wq'}


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads:
        raise ValueError("heads must divide d")
    d_h = d // heads
    Q = x @ p["Wq"] + p["bq"]
    K = x @ p["Wq"] + p["bk"]
    V = x @ p["Wv"] + p["bv"]
    outs = []
    for h in range(heads):
        cols = slice(h * d_h, (h + 1) * d_h)
        s = Q[:, cols] @ K[:, cols].T / np.sqrt(d_h)
        if causal:
            s = s + np.triu(np.full((T, T), -np.inf), 1)
        outs.append(softmax(s, axis=-1) @ V[:, cols])
    return np.concatenate(outs, axis=1) @ p["Wo"] + p["bo"]
