"""HF ViTLayer ported with the normalised states kept in one variable: the attention's residual
adds the LayerNorm's output back, not the block's input."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:residual:encoder_block:residual-from-layer_norm'}


def encoder_block(x, p, heads):
    hidden_states = layer_norm(x, p["ln1_g"], p["ln1_b"])
    hidden_states = self_attention(hidden_states, p, heads) + hidden_states
    layer_output = layer_norm(hidden_states, p["ln2_g"], p["ln2_b"])
    layer_output = gelu(layer_output @ p["W1"] + p["b1"])
    return layer_output @ p["W2"] + p["b2"] + hidden_states
