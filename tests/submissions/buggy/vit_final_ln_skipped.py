"""vit_forward skips the final LayerNorm."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'vit-forward': 'vit_final_ln_skipped'}


def vit_forward(image, params):
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    return x[0] @ params["W_head"] + params["b_head"]
