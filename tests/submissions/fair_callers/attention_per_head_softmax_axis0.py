"""softmax always normalises along axis 0 (wrong); self_attention is right, written per head as
many tutorials do, so it calls softmax on each (T, T) head, not once on (heads, T, T) as the
course solution does: calls nobody recorded."""
# ruff: noqa: F821  (every other name is the solution's)


def softmax(x, axis=-1):
    shifted = np.exp(x - np.max(x, axis=0, keepdims=True))
    return shifted / np.sum(shifted, axis=0, keepdims=True)


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads:
        raise ValueError("heads must divide d")
    d_h = d // heads
    q, k, v = (x @ p[f"W{n}"] + p[f"b{n}"] for n in "qkv")
    outs = []
    for h in range(heads):
        cols = slice(h * d_h, (h + 1) * d_h)
        scores = q[:, cols] @ k[:, cols].T / np.sqrt(d_h)
        if causal:
            scores = np.where(np.tri(T, dtype=bool), scores, -np.inf)
        outs.append(softmax(scores, axis=-1) @ v[:, cols])
    return np.concatenate(outs, axis=1) @ p["Wo"] + p["bo"]
