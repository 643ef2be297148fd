"""Blind round 27 (b27_11, issue 38): encoder_block ported from keras.io's "Text classification
with Transformer" (TransformerBlock.call: `out1 = self.layernorm1(inputs + attn_output)`, then
`self.layernorm2(out1 + ffn_output)`). The student's correct embed_image
(TokenAndPositionEmbedding's `pos_emb(tf.range(maxlen))`) is left out: it grades as the solution's.

Mistakes:
1. encoder_block is post-LN: LayerNorm after each residual sum, not on each branch's input.

Grader: at blind time and now, named: a post-LN block on encoder-block; vit-checkpoint observes the
broken encoder_block. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'encoder_post_ln'}


def encoder_block(x, p, heads):
    inputs = x
    attn_output = self_attention(inputs, p, heads)            # self.att(inputs, inputs)
    out1 = layer_norm(inputs + attn_output, p["ln1_g"], p["ln1_b"])
    ffn_output = gelu(out1 @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    return layer_norm(out1 + ffn_output, p["ln2_g"], p["ln2_b"])
