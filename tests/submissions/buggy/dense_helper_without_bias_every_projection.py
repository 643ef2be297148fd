"""A dense(t, W) helper written without a bias, used for the q, k, v and output projections alike (the biases bq, bk, bv, bo all left out).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:term:self_attention/linear*:drop-b'}


def self_attention(x, p, heads, causal=False):
    def dense(t, W):
        return t @ W
    T, d = x.shape
    if d % heads:
        raise ValueError("heads")
    dh = d // heads
    q, k, v = (dense(x, p[n]).reshape(T, heads, dh).transpose(1, 0, 2) for n in ("Wq", "Wk", "Wv"))
    s = q @ k.transpose(0, 2, 1) / np.sqrt(dh)
    if causal:
        s = np.where(np.tril(np.ones((T, T), bool)), s, -np.inf)
    o = softmax(s) @ v
    return dense(o.transpose(1, 0, 2).reshape(T, d), p["Wo"])
