"""encoder_block's MLP uses ReLU."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'encoder_relu'}


def encoder_block(x, p, heads):
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    return x + np.maximum(h @ p["W1"] + p["b1"], 0) @ p["W2"] + p["b2"]
