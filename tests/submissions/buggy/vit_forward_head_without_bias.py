"""A classifier head ported from a bias-free nn.Linear: the logits forget b_head."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'vit-forward': 'op:term:vit_forward/linear:drop-b'}


def vit_forward(image, params):
    x = embed_image(image, params)
    for blk in params["blocks"]:
        x = encoder_block(x, blk, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return x[0] @ params["W_head"]
