"""An encoder block whose MLP applies GELU to the normalised input, before the first linear
map, instead of between the two maps."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:activation_moved:encoder_block/mlp:activation-before-step'}


def encoder_block(x, p, heads):
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    y = layer_norm(x, p["ln2_g"], p["ln2_b"])
    y = (gelu(y) @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    return x + y
