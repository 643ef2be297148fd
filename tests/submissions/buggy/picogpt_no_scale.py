"""picoGPT's attention without the 1/sqrt(d_h) scale (np.split into heads, as picoGPT does)."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'attention_no_scale'}


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads:
        raise ValueError(f"{heads} heads do not divide {d}")
    q, k, v = x @ p["Wq"] + p["bq"], x @ p["Wk"] + p["bk"], x @ p["Wv"] + p["bv"]
    mask = (1 - np.tri(T)) * -1e10 if causal else np.zeros((T, T))
    out_heads = []
    for qh, kh, vh in zip(*(np.split(m, heads, axis=-1) for m in (q, k, v))):
        out_heads.append(softmax(qh @ kh.T + mask) @ vh)       # no / sqrt(d_h)
    return np.hstack(out_heads) @ p["Wo"] + p["bo"]
