"""The attention weights divided by sqrt(d_h) after the softmax, softmax(q k^T) / sqrt(d_h), not the scores before it.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:scale_after:self_attention/attention:scores-scaled-after-softmax'}


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads:
        raise ValueError("heads")
    d_h = d // heads
    q = (x @ p["Wq"] + p["bq"]).reshape(T, heads, d_h).transpose(1, 0, 2)
    k = (x @ p["Wk"] + p["bk"]).reshape(T, heads, d_h).transpose(1, 0, 2)
    v = (x @ p["Wv"] + p["bv"]).reshape(T, heads, d_h).transpose(1, 0, 2)
    s = q @ k.transpose(0, 2, 1)
    if causal:
        s = np.where(np.tril(np.ones((T, T))) > 0, s, -np.inf)
    a = softmax(s, axis=-1) / np.sqrt(d_h)
    out = a @ v
    return out.transpose(1, 0, 2).reshape(T, d) @ p["Wo"] + p["bo"]
