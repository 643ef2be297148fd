"""softmax ignores `axis` and always normalises along the last one (wrong for any other);
self_attention is right: it normalises the transposed scores along their keys' axis and
transposes back, `softmax(scores.swapaxes(-1, -2), axis=-2)`, a call with the API's optional
`axis` set, which the course solution never makes: the stand-in passes the axis on and the
reference computes it."""
# ruff: noqa: F821  (every other name is the solution's)


def softmax(x, axis=-1):
    shifted = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return shifted / np.sum(shifted, axis=-1, keepdims=True)


def self_attention(x, p, heads, causal=False):
    *lead, T, d = x.shape
    if d % heads:
        raise ValueError("heads must divide d")
    d_h = d // heads

    def split(t):
        return t.reshape(*lead, T, heads, d_h).swapaxes(-2, -3)

    q, k, v = (split(x @ p[f"W{n}"] + p[f"b{n}"]) for n in "qkv")
    scores = q @ k.swapaxes(-1, -2) / np.sqrt(d_h)
    if causal:
        scores = np.where(np.tri(T, dtype=bool), scores, -np.inf)
    weights = softmax(scores.swapaxes(-1, -2), axis=-2).swapaxes(-1, -2)
    out = (weights @ v).swapaxes(-2, -3).reshape(*lead, T, d)
    return out @ p["Wo"] + p["bo"]
