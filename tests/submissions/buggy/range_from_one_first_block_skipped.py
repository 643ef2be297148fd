"""Written for issue 38 (session 32): vit_forward counts the blocks from 1, as a 1-based
`layer_1 ... layer_n` naming suggests.

Mistakes:
1. vit_forward never applies block 0 (`range(1, len(blocks))`). Wrong with one block or more.

Grader: named (sequence.py's `loop_short`): "In `vit_forward`, the loop never reaches the
first one: it runs over `params['blocks'][1:]` ...".
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'vit-forward': 'op:loop_short:vit_forward:block-first-left-out'}


def vit_forward(image, params):
    """Logits (num_classes,) of one image."""
    x = embed_image(image, params)
    for layer in range(1, len(params["blocks"])):
        x = encoder_block(x, params["blocks"][layer], params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return x[0] @ params["W_head"] + params["b_head"]
