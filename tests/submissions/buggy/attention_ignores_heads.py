"""Single-head attention whatever `heads` is: right for one head only."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'attention_one_head'}


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    q, k, v = (x @ p[f"W{n}"] + p[f"b{n}"] for n in "qkv")
    scores = q @ k.T / math.sqrt(d)
    if causal:
        scores = np.where(np.tril(np.ones((T, T), dtype=bool)), scores, -np.inf)
    return softmax(scores, axis=-1) @ v @ p["Wo"] + p["bo"]
