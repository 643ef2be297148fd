"""DeiT's forward ported to a plain ViT: the head reads token 1, where DeiT keeps its
distillation token, instead of the [CLS] row 0."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'vit-forward': 'op:index:vit_forward:x[1]'}


def vit_forward(image, params):
    x = embed_image(image, params)
    for blk in params["blocks"]:
        x = encoder_block(x, blk, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    cls_token, dist_token = x[0], x[1]
    return dist_token @ params["W_head"] + params["b_head"]
