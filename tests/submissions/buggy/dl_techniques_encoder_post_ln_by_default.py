"""Blind round 35 (b35_09, issue 38): NikolasMarkou/dl_techniques,
src/dl_techniques/models/vit/model.py (Keras 3 TransformerLayer, `normalization_position="post"`
by default), ported to encoder_block with both positions.

Mistakes:
1. The source's default `normalization_position="post"` is kept as the default: post-LN
   (x = LN1(x + attn(x)); x = LN2(x + mlp(x))) instead of the lecture's pre-LN. Wrong on every
   input.

Grader: at blind time (2f30801) and now, named: "That is a post-LN block (LayerNorm after each
residual sum, as in the 2017 Transformer). ViT is pre-LN ..." on encoder-block, visible and
hidden; vit-checkpoint observes the broken encoder_block. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'encoder_post_ln'}


def encoder_block(x, p, heads, normalization_position="post"):
    """TransformerLayer.call for one sequence; 'pre' and 'post' as in dl_techniques."""
    def ffn(z):                                   # ffn_type='mlp', activation='gelu'
        return gelu(z @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]

    def norm1(z):
        return layer_norm(z, p["ln1_g"], p["ln1_b"])

    def norm2(z):
        return layer_norm(z, p["ln2_g"], p["ln2_b"])

    if normalization_position == "pre":
        x = x + self_attention(norm1(x), p, heads)
        x = x + ffn(norm2(x))
    else:
        x = norm1(x + self_attention(x, p, heads))
        x = norm2(x + ffn(x))
    return x
