"""timm's Block with its Mlp ported by hand: fc2 written without its bias b2."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:term:encoder_block/mlp/linear.2:drop-b'}


def encoder_block(x, p, heads):
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    h = gelu(h @ p["W1"] + p["b1"])   # fc1, act
    h = h @ p["W2"]                    # fc2
    return x + h
