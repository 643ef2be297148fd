"""encoder_block calls self_attention with causal=True."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'encoder_causal'}


def encoder_block(x, p, heads):
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads, causal=True)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    return x + gelu(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
