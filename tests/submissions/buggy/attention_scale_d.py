"""self_attention scales by 1/sqrt(d) instead of 1/sqrt(d_h)."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'attention_scale_d'}


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    d_h = d // heads

    def split(y):                                   # (T, d) -> (heads, T, d_h)
        return y.reshape(T, heads, d_h).transpose(1, 0, 2)

    q, k, v = (split(x @ p[f"W{n}"] + p[f"b{n}"]) for n in "qkv")
    scores = q @ k.transpose(0, 2, 1) / math.sqrt(d)  # (heads, T, T)
    if causal:
        scores = np.where(np.tril(np.ones((T, T), dtype=bool)), scores, -np.inf)
    out = softmax(scores, axis=-1) @ v                  # (heads, T, d_h)
    return out.transpose(1, 0, 2).reshape(T, d) @ p["Wo"] + p["bo"]
