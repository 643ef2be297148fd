"""Written for issue 38's error model (error_model/call_eps.py), in the style of keras-io's
`image_classification_with_vision_transformer` block, whose `layers.LayerNormalization(epsilon=
1e-6)` lost its argument at the first norm: Keras' default epsilon, 1e-3, there; the second
keeps 1e-6. Each norm is built by a small Keras-like factory, not called with `eps=` inline.

Mistakes:
1. encoder_block: the first LayerNorm with eps=1e-3 (`LayerNormalization()`), the second with
   1e-6. Shows on tokens of small spread (the visible check's fresh-block case), slightly
   elsewhere.

Grader: named on encoder-block's checks: "In `encoder_block`, at the first LayerNorm (with
`p['ln1_g']` and `p['ln1_b']`) alone, eps is 0.001; the student API's is 1e-06 there." (the
block's eps as a whole, 1e-3 at both, is refuted by the cases where the second's shows).
Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'op:call_eps:encoder_block:layer_norm_eps=0.001'}


def encoder_block(x, p, heads):
    """keras-io's transformer layer: x1 = LayerNormalization()(x); attention; skip; norm; MLP."""
    def LayerNormalization(epsilon=1e-3):  # keras.layers.LayerNormalization's default
        return lambda t, g, b: layer_norm(t, g, b, eps=epsilon)

    x1 = LayerNormalization()(x, p["ln1_g"], p["ln1_b"])
    attention_output = self_attention(x1, p, heads)
    x2 = attention_output + x
    x3 = LayerNormalization(epsilon=1e-6)(x2, p["ln2_g"], p["ln2_b"])
    x3 = gelu(x3 @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    return x3 + x2
