"""Blind round 2 (issue 38): softmax does not subtract the max (overflows near 1000);
self_attention calls its (right-axis) softmax with axis=1 on the (heads, T, T) scores: the
queries, not the keys. The causal check once named this as two mistakes in softmax's own max and
sum; the axis operator now gives the call itself another axis: one mistake, in the right place.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'softmax_without_max', 'multi-head-attention': 'attention_softmax_wrong_axis'}


def softmax(x, axis=-1):
    e = np.exp(x)
    return e / e.sum(axis=axis, keepdims=True)


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    dh = d // heads
    q = (x @ p["Wq"] + p["bq"]).reshape(T, heads, dh).transpose(1, 0, 2)
    k = (x @ p["Wk"] + p["bk"]).reshape(T, heads, dh).transpose(1, 0, 2)
    v = (x @ p["Wv"] + p["bv"]).reshape(T, heads, dh).transpose(1, 0, 2)
    dots = np.matmul(q, k.transpose(0, 2, 1)) / np.sqrt(dh)
    if causal:
        dots = np.where(np.tril(np.ones((T, T), dtype=bool)), dots, -np.inf)
    attn = softmax(dots, axis=1)
    out = np.matmul(attn, v)
    return out.transpose(1, 0, 2).reshape(T, d) @ p["Wo"] + p["bo"]
