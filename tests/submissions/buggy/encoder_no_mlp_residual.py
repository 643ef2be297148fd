"""encoder_block has no residual around the MLP."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'encoder_no_mlp_residual'}


def encoder_block(x, p, heads):
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    return gelu(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
