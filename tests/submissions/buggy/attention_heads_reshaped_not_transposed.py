"""Heads split with q.reshape(heads, T, d_h): the right shape without a transpose, so each head gets rows of consecutive numbers, not its own columns.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:reshape_for_transpose:self_attention/split_heads*:reshape-instead-of-swapaxes'}
ALIASES = ('attention_not_equivariant',)  # the permutation property's verdict on the split


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads:
        raise ValueError("heads")
    d_h = d // heads
    q = (x @ p["Wq"] + p["bq"]).reshape(heads, T, d_h)
    k = (x @ p["Wk"] + p["bk"]).reshape(heads, T, d_h)
    v = (x @ p["Wv"] + p["bv"]).reshape(heads, T, d_h)
    s = q @ k.transpose(0, 2, 1) / np.sqrt(d_h)
    if causal:
        s = np.where(np.tril(np.ones((T, T))) > 0, s, -np.inf)
    a = softmax(s, axis=-1)
    out = a @ v
    return out.transpose(1, 0, 2).reshape(T, d) @ p["Wo"] + p["bo"]
