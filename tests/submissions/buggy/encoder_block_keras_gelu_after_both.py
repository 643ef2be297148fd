"""The Keras ViT example's transformer block: its mlp() helper builds every Dense layer with
activation=tf.nn.gelu, so GELU is applied after the second linear map too."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:activation_added:encoder_block/mlp:activation-after-linear.2'}


def encoder_block(x, p, heads):
    def mlp(x, hidden_units):
        for W, b in hidden_units:
            x = gelu(x @ W + b)
        return x

    x1 = layer_norm(x, p["ln1_g"], p["ln1_b"])
    attention_output = self_attention(x1, p, heads)
    x2 = attention_output + x
    x3 = layer_norm(x2, p["ln2_g"], p["ln2_b"])
    x3 = mlp(x3, [(p["W1"], p["b1"]), (p["W2"], p["b2"])])
    return x3 + x2
