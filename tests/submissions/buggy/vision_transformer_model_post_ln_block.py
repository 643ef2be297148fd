"""Blind round 66 (b66_10, issue 38): encoder_block ported from
Aman-Yadav-PY/Vision-Transformer-Model `modelpipe/transformer.py` (MultiHeadSelfAttention.forward
returns `self.norm(x + attn)`, the layer `self.norm(x + self.model(x))`).

Mistakes:
20. encoder_block (lines 180 and 182 of the file as delivered): a post-LN block,
    `x = LN1(x + attn(x))` then `LN2(x + mlp(x))`. Wrong on any input.

Grader: at blind time (f4776223) and now, 99/110, named on encoder-block's two checks ("That is a
post-LN block ... ViT is pre-LN"); vit-checkpoint observes it. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'encoder_post_ln'}


def encoder_block(x, p, heads):
    """The encoder layer (T, d) -> (T, d), as TransformerEncoderLayer.

    x = norm(x + Wo(attention(Q, K, V)))          (MultiHeadSelfAttention.forward)
    x = norm(x + Linear(GELU(Linear(x))))         (TransformerEncoderLayer.forward)
    """
    attn = self_attention(x, p, heads)
    x = layer_norm(x + attn, p["ln1_g"], p["ln1_b"])
    model = gelu(x @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    return layer_norm(x + model, p["ln2_g"], p["ln2_b"])
