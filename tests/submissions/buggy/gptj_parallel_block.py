"""GPT-J's parallel block: x + attn(LN1(x)) + mlp(LN2(x)), both branches read the block's input (the MLP should read the stream after attention).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:stale:encoder_block:x-before-update.2'}


def encoder_block(x, p, heads):
    h1 = layer_norm(x, p["ln1_g"], p["ln1_b"])
    h2 = layer_norm(x, p["ln2_g"], p["ln2_b"])
    return x + self_attention(h1, p, heads) + gelu(h2 @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
