"""Blind round 45 (b45_09, issue 38): encoder_block ported from a Flax nnx vision_transformer
package's EncoderBlock (`x = norm1(multi_head_attention_output + x)`, `output =
norm2(multi_layer_perceptron_output + x)`).

Mistakes:
1. Post-LN: `LN(x + attn(x))`, then `LN(h + mlp(h))`, instead of the lecture's pre-LN
   `x + attn(LN(x))`, then `x + mlp(LN(x))`. The GELU MLP is right.
vit_forward inherits it.

Grader: at blind time (fe6e9573) and now, named: "That is a post-LN block (LayerNorm after each
residual sum, as in the 2017 Transformer)" (encoder_post_ln), visible and hidden; vit-checkpoint
observes the broken encoder_block. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'encoder_post_ln'}


def encoder_block(x, p, heads):
    """One encoder block (T, d) -> (T, d): attention block, then feed forward block."""
    multi_head_attention_output = self_attention(x, p, heads)
    x = layer_norm(multi_head_attention_output + x, p["ln1_g"], p["ln1_b"])
    multi_layer_perceptron_output = gelu(x @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    output = layer_norm(multi_layer_perceptron_output + x, p["ln2_g"], p["ln2_b"])
    return output
