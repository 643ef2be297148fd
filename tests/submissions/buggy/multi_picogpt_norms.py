"""picoGPT's style, two bugs: layer_norm's variance is unbiased (its parameters named g and b,
as picoGPT names them) and softmax normalises over axis 0 (it takes an extra `temperature`).
The correct encoder_block passes each LayerNorm's parameters as a dict, `layer_norm(x, **ln_1)`,
and the correct self_attention calls `softmax(scores, axis=-1, temperature=1.0)`."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'layer_norm_unbiased', 'stable-softmax': 'softmax_wrong_axis'}
CORRECT = ("self_attention", "encoder_block")  # written in a student's style: they keep every point


def softmax(x, axis=-1, temperature=1.0):
    x = x / temperature
    shifted = np.exp(x - np.max(x, axis=0, keepdims=True))
    return shifted / np.sum(shifted, axis=0, keepdims=True)


def layer_norm(x, g, b, eps=1e-6):
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, ddof=1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * g + b


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    d_h = d // heads
    q, k, v = ((x @ p[f"W{n}"] + p[f"b{n}"]).reshape(T, heads, d_h).transpose(1, 0, 2)
               for n in "qkv")
    scores = q @ k.transpose(0, 2, 1) / math.sqrt(d_h)
    if causal:
        scores = np.where(np.tril(np.ones((T, T), dtype=bool)), scores, -np.inf)
    out = softmax(scores, axis=-1, temperature=1.0) @ v
    return out.transpose(1, 0, 2).reshape(T, d) @ p["Wo"] + p["bo"]


def encoder_block(x, p, heads):
    ln_1 = {"g": p["ln1_g"], "b": p["ln1_b"]}
    ln_2 = {"g": p["ln2_g"], "b": p["ln2_b"]}
    x = x + self_attention(layer_norm(x, **ln_1), p, heads)
    return x + gelu(layer_norm(x, **ln_2) @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
