"""picoGPT's transformer_block ported with one copy-paste slip: the second LayerNorm reads
ln_1's parameters (ln1_g, ln1_b) again instead of ln2_g, ln2_b."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:step_parameters:encoder_block:ln2_g-as-ln1_g-in-layer_norm'}


def encoder_block(x, p, heads):
    ln_1 = {"gamma": p["ln1_g"], "beta": p["ln1_b"]}
    ln_2 = {"gamma": p["ln1_g"], "beta": p["ln1_b"]}
    x = x + self_attention(layer_norm(x, **ln_1), p, heads)
    a = gelu(layer_norm(x, **ln_2) @ p["W1"] + p["b1"])
    return x + (a @ p["W2"] + p["b2"])
