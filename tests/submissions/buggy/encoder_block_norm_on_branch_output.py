"""LayerNorm put on each branch's output, x + LN(attn(x)) and x + LN(mlp(x)), instead of before the branch.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:steps:encoder_block:self_attention-and-layer_norm-swapped+op:steps:encoder_block:mlp-and-layer_norm.2-swapped'}


def encoder_block(x, p, heads):
    x = x + layer_norm(self_attention(x, p, heads), p["ln1_g"], p["ln1_b"])
    return x + layer_norm(gelu(x @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"], p["ln2_g"], p["ln2_b"])
