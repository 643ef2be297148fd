"""HF ViTLayer ported with hidden_act="silu" (a config copied from another model): the MLP's
activation is SiLU, x * sigmoid(x), not GELU."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:activation:encoder_block/mlp:act=silu'}


def encoder_block(x, p, heads):
    attention_output = self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    hidden_states = attention_output + x
    layer_output = layer_norm(hidden_states, p["ln2_g"], p["ln2_b"])
    intermediate = layer_output @ p["W1"] + p["b1"]
    intermediate = intermediate / (1.0 + np.exp(-intermediate))   # ACT2FN["silu"]
    return intermediate @ p["W2"] + p["b2"] + hidden_states
