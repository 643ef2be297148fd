"""Written for issue 38 (session 32): vit_forward runs the blocks in a list comprehension, each
on the embedded tokens, and keeps the last output.

Mistakes:
1. vit_forward does not chain the blocks: each reads the embedded tokens, only the last block's
   output is kept. Wrong with two blocks or more.

Grader: named (names.py's `unchained`): "In `vit_forward`, every pass of `for block in
params['blocks']` reads `x` as it was before the loop ...".
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'vit-forward': 'op:unchained:vit_forward:x-not-carried'}


def vit_forward(image, params):
    """Logits (num_classes,) of one image."""
    tokens = embed_image(image, params)
    outputs = [encoder_block(tokens, block, params["heads"]) for block in params["blocks"]]
    x = layer_norm(outputs[-1], params["ln_g"], params["ln_b"])
    return x[0] @ params["W_head"] + params["b_head"]
