"""Lab 4 submission.

Mistake (1): encoder_block's second LayerNorm (before the MLP) uses ln1_g, ln1_b, copied
from the first line, instead of ln2_g, ln2_b.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:step_parameters:encoder_block:ln2_g-as-ln1_g-in-layer_norm'}


def encoder_block(x, p, heads):
    # attention sub-block
    y = layer_norm(x, p["ln1_g"], p["ln1_b"])
    x = x + self_attention(y, p, heads)
    # mlp sub-block
    y = layer_norm(x, p["ln1_g"], p["ln1_b"])
    y = gelu(y @ p["W1"] + p["b1"])
    x = x + y @ p["W2"] + p["b2"]
    return x
