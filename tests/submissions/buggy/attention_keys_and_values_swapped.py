"""Keys and values mixed up: softmax(q v^T / sqrt(d_h)) k.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:arguments:self_attention:k-and-v-swapped'}


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads:
        raise ValueError("heads")
    d_h = d // heads
    q = (x @ p["Wq"] + p["bq"]).reshape(T, heads, d_h).transpose(1, 0, 2)
    k = (x @ p["Wk"] + p["bk"]).reshape(T, heads, d_h).transpose(1, 0, 2)
    v = (x @ p["Wv"] + p["bv"]).reshape(T, heads, d_h).transpose(1, 0, 2)
    s = q @ v.transpose(0, 2, 1) / np.sqrt(d_h)
    if causal:
        s = np.where(np.tril(np.ones((T, T))) > 0, s, -np.inf)
    a = softmax(s, axis=-1)
    out = a @ k
    return out.transpose(1, 0, 2).reshape(T, d) @ p["Wo"] + p["bo"]
