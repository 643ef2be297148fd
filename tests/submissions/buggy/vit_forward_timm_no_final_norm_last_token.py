"""A forward pass ported from a GPT-style classifier: no final LayerNorm (timm's norm layer
left as Identity) and the logits read from the last token, as a causal model would. Two
mistakes in one function."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'vit-forward': 'vit_last_row+vit_final_ln_skipped'}


def vit_forward(image, params):
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    return x[-1] @ params["W_head"] + params["b_head"]
