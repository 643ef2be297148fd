"""DeiT's inference head ported to a plain ViT: (head(x[0]) + head_dist(x[1])) / 2 with the
one head, so the logits average the [CLS] row's and the next token's."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'vit-forward': 'op:pool:vit_forward:x[0]-mean-with-next'}


def vit_forward(image, params):
    x = embed_image(image, params)
    for blk in params["blocks"]:
        x = encoder_block(x, blk, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    x_cls = x[0] @ params["W_head"] + params["b_head"]
    x_dist = x[1] @ params["W_head"] + params["b_head"]
    return (x_cls + x_dist) / 2
