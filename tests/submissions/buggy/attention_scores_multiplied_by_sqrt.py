"""The scores multiplied by sqrt(d_h) instead of divided by it.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:divided:self_attention/attention:math.sqrt(q.shape[-1])-multiplied'}


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads:
        raise ValueError("heads")
    d_h = d // heads
    q, k, v = ((x @ p["W" + n] + p["b" + n]).reshape(T, heads, d_h).transpose(1, 0, 2) for n in "qkv")
    s = q @ k.transpose(0, 2, 1) * np.sqrt(d_h)
    if causal:
        s = np.where(np.tril(np.ones((T, T))) > 0, s, -np.inf)
    o = (softmax(s) @ v).transpose(1, 0, 2).reshape(T, d)
    return o @ p["Wo"] + p["bo"]
