"""encoder_block in the style of a from-scratch transformer: the MLP's activation is
np.maximum(0, h), a ReLU, where ViT uses GELU."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'encoder_relu'}


def encoder_block(x, p, heads):
    h = layer_norm(x, p["ln1_g"], p["ln1_b"])
    x = x + self_attention(h, p, heads)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    h = h @ p["W1"] + p["b1"]
    h = np.maximum(0, h)                            # activation
    h = h @ p["W2"] + p["b2"]
    return x + h
