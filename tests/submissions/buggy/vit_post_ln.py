"""vit_forward writes its blocks inline, post-LN as in the 2017 Transformer: LayerNorm after each
residual sum, x = LN(x + attention(x)), x = LN(x + mlp(x)), instead of ViT's pre-LN
x = x + attention(LN(x)). It never calls encoder_block."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'vit-forward': 'vit_post_ln'}


def vit_forward(image, params):
    def mlp(h, b):
        return gelu(h @ b["W1"] + b["b1"]) @ b["W2"] + b["b2"]

    x = embed_image(image, params)
    for blk in params["blocks"]:
        x = layer_norm(x + self_attention(x, blk, params["heads"]), blk["ln1_g"], blk["ln1_b"])
        x = layer_norm(x + mlp(x, blk), blk["ln2_g"], blk["ln2_b"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    cls = x[0]
    return cls @ params["W_head"] + params["b_head"]
