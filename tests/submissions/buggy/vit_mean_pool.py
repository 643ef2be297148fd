"""vit_forward pools the mean of the patch tokens."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'vit-forward': 'vit_mean_pool'}


def vit_forward(image, params):
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return x[1:].mean(axis=0) @ params["W_head"] + params["b_head"]
