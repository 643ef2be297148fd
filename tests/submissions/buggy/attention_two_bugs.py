"""Two mistakes in one self_attention: no 1/sqrt(d_h) scale and a mask that hides the diagonal."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {
    'no-causal-mask': 'attention_causal_diagonal+attention_no_scale',
    'multi-head-attention': 'attention_no_scale',
}


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    d_h = d // heads
    q, k, v = ((x @ p[f"W{n}"] + p[f"b{n}"]).reshape(T, heads, d_h).transpose(1, 0, 2)
               for n in "qkv")
    scores = q @ k.transpose(0, 2, 1)
    if causal:
        scores[..., np.triu(np.ones((T, T), dtype=bool))] = -np.inf
    out = softmax(scores, axis=-1) @ v
    return out.transpose(1, 0, 2).reshape(T, d) @ p["Wo"] + p["bo"]
