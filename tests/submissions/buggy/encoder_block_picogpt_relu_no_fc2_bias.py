"""picoGPT's ffn with the activation swapped for ReLU and c_proj's bias left out: two mistakes
in the MLP."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block':
          'op:activation:encoder_block/mlp:act=relu+op:term:encoder_block/mlp/linear.2:drop-b'}


def encoder_block(x, p, heads):
    def ffn(h):
        a = np.maximum(0, h @ p["W1"] + p["b1"])   # c_fc, then the activation
        return a @ p["W2"]                          # c_proj
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    return x + ffn(layer_norm(x, p["ln2_g"], p["ln2_b"]))
