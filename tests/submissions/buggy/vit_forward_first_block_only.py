"""A ViT forward pass looping over the blocks by index, with a typo: params["blocks"][0] every
time, so block 0's weights are used at every depth."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'vit-forward': 'op:loop:vit_forward:block-first'}


def vit_forward(image, params):
    x = embed_image(image, params)
    depth = len(params["blocks"])
    for i in range(depth):
        x = encoder_block(x, params["blocks"][0], params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return x[0] @ params["W_head"] + params["b_head"]
