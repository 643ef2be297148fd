"""Lab 4 submission.

Mistakes (2):
- vit_forward runs params["blocks"][0] once per block (indexing bug in the loop) instead
  of each block in turn. Only visible with two or more blocks.
- linear_patch_embed forgets the bias b_e: patchify(image, P) @ W_e.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'linear-patch-embed': 'linear_embed_bias_forgotten', 'vit-forward': 'op:loop:vit_forward:block-first'}


def linear_patch_embed(image, W_e, b_e, P):
    """Tokens = patches @ W_e."""
    return patchify(image, P) @ W_e


def vit_forward(image, params):
    x = embed_image(image, params)
    blocks = params["blocks"]
    for i in range(len(blocks)):
        x = encoder_block(x, blocks[0], params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return x[0] @ params["W_head"] + params["b_head"]
