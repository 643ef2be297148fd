"""The causal mask multiplies the scores by the lower triangle: the hidden scores are 0, not -inf, and still weigh exp(0) = 1 after the softmax.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:infinity:self_attention/attention:minus-inf-as-0'}


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads:
        raise ValueError("heads")
    d_h = d // heads
    q = (x @ p["Wq"] + p["bq"]).reshape(T, heads, d_h).transpose(1, 0, 2)
    k = (x @ p["Wk"] + p["bk"]).reshape(T, heads, d_h).transpose(1, 0, 2)
    v = (x @ p["Wv"] + p["bv"]).reshape(T, heads, d_h).transpose(1, 0, 2)
    s = q @ k.transpose(0, 2, 1) / np.sqrt(d_h)
    if causal:
        s = s * np.tril(np.ones((T, T)))
    a = softmax(s, axis=-1)
    out = a @ v
    return out.transpose(1, 0, 2).reshape(T, d) @ p["Wo"] + p["bo"]
