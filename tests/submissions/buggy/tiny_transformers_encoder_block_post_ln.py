"""Blind round 69 (b69_02, issue 38): encoder_block ported from ibusnowden/tiny_transformers
`core/transformer.py` (TransformerBlock.forward).

Mistakes:
1. encoder_block (lines 198 and 200 of the file as delivered): post-LN, `X = norm1(X +
   attn(X))` then `norm2(X + ffn(X))`: attention reads the raw x and the output is
   layer-normed. Wrong on every input (vit_forward too).

Grader: at blind time (cb37e6da) and now, 99/110, named on encoder-block ("That is a post-LN
block (LayerNorm after each residual sum ...). ViT is pre-LN"); vit-checkpoint gets an
observation pointing to encoder_block. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'encoder_post_ln'}


def encoder_block(x, p, heads):
    """Encoder block, ported from TransformerBlock.forward (ibusnowden/tiny_transformers)."""
    attn_out = self_attention(x, p, heads)
    X = layer_norm(x + attn_out, p["ln1_g"], p["ln1_b"])
    ff_out = gelu(X @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    X = layer_norm(X + ff_out, p["ln2_g"], p["ln2_b"])
    return X
