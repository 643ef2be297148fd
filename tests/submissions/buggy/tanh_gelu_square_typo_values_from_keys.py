"""Lab 4 submission with its own tanh GELU.

Mistakes (2):
- encoder_block's own gelu has a typo in the tanh approximation: 0.044715 * x**2 instead of x**3,
  so encoder_block's MLP is wrong.
- self_attention computes the values with the key weights (x @ Wk + bk), a copy-paste slip,
  instead of Wv, bv.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:step_parameters:self_attention:Wv-as-Wk-in-linear', 'encoder-block': 'op:activation_slip:encoder_block/mlp:act=gelu_tanh.power-3-as-2'}


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    d_h = d // heads
    q = x @ p["Wq"] + p["bq"]
    k = x @ p["Wk"] + p["bk"]
    v = x @ p["Wk"] + p["bk"]
    out = np.zeros((T, d))
    for h in range(heads):
        cols = slice(h * d_h, (h + 1) * d_h)
        s = q[:, cols] @ k[:, cols].T / np.sqrt(d_h)
        if causal:
            s = np.where(np.tril(np.ones((T, T))) == 1, s, -np.inf)
        out[:, cols] = softmax(s, axis=-1) @ v[:, cols]
    return out @ p["Wo"] + p["bo"]


def encoder_block(x, p, heads):
    def gelu(x):
        """tanh approximation of GELU (Hendrycks & Gimpel)."""
        return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 2)))

    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    return x + gelu(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
