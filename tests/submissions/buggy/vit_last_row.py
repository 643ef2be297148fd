"""vit_forward's head reads the last token."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'vit-forward': 'vit_last_row'}


def vit_forward(image, params):
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return x[-1] @ params["W_head"] + params["b_head"]
