"""Written for issue 38 (session 32): vit_forward loops over the block indices and reads block 0
at each (a `blocks[0]` left from a first try with one block).

Mistakes:
1. vit_forward applies `params["blocks"][0]` len(blocks) times. Wrong with two blocks or more.

Grader: named (operators.py's `loop`): "In `vit_forward`, every pass of `for block in
params['blocks']` uses the first one, `params['blocks'][0]`, instead of `block`."
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'vit-forward': 'op:loop:vit_forward:block-first'}


def vit_forward(image, params):
    """Logits (num_classes,) of one image."""
    blocks = params["blocks"]
    x = embed_image(image, params)
    for i in range(len(blocks)):
        x = encoder_block(x, blocks[0], params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return x[0] @ params["W_head"] + params["b_head"]
