"""Blind round 43 (b43_08, issue 38): encoder_block ported from a Keras ViT encoder in a
driving-model script (code-search file id 22640718333: `mlp_block_f(mlp_dim, inputs)` with two
`Dense(..., activation=tf.nn.gelu)` layers and `Encoder1Dblock_f` built on
`layers.LayerNormalization(dtype=inputs.dtype)`), without dropout.

Mistakes:
1. The MLP applies GELU after the second Dense too (`Dense(inputs.shape[-1],
   activation=tf.nn.gelu)`).
2. Both layer norms use Keras' LayerNormalization default epsilon 1e-3 instead of 1e-6.

Grader: at blind time (b20830f) and now, both named in one hint: "2 mistakes at once: (1) In
`encoder_block`, eps is 0.001; the lecture's is 1e-06. (2) In `encoder_block` (at the
lecture's step `mlp(...)`), `linear(h, p['W2'], p['b2'])` also goes through the activation
..." on encoder-block; vit-checkpoint observes encoder_block. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:constant:encoder_block:eps=0.001+op:activation_added:encoder_block/mlp:activation-after-linear.2'}


def encoder_block(x, p, heads):
    """Encoder1Dblock_f without dropout: LN, MHA, residual; LN, mlp_block_f, residual."""
    ln_eps = 1e-3   # layers.LayerNormalization() default epsilon

    def mlp_block_f(y):
        h = gelu(y @ p["W1"] + p["b1"])
        return gelu(h @ p["W2"] + p["b2"])  # check GELU paper

    inputs = x
    x = layer_norm(inputs, p["ln1_g"], p["ln1_b"], eps=ln_eps)
    x = self_attention(x, p, heads)
    x = x + inputs                     # 1st residual part
    y = layer_norm(x, p["ln2_g"], p["ln2_b"], eps=ln_eps)
    y = mlp_block_f(y)
    return y + x                       # 2nd residual part
