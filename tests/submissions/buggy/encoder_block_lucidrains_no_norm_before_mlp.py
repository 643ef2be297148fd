"""lucidrains' Transformer ported to numpy, the FeedForward's LayerNorm forgotten: the MLP
reads the residual stream un-normalised."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:skip:encoder_block:skip-layer_norm.2'}


def encoder_block(x, p, heads):
    x = self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads) + x
    hidden = gelu(x @ p["W1"] + p["b1"])
    x = hidden @ p["W2"] + p["b2"] + x
    return x
