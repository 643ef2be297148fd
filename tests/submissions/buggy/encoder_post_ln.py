"""encoder_block is post-LN."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'encoder_post_ln'}


def encoder_block(x, p, heads):
    x = layer_norm(x + self_attention(x, p, heads), p["ln1_g"], p["ln1_b"])
    return layer_norm(x + gelu(x @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"], p["ln2_g"], p["ln2_b"])
