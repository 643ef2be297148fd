"""Written for issue 38 (session 32): vit_forward walks the blocks in (current, next) pairs
with zip, a look-ahead it never uses, so the last block is never current.

Mistakes:
1. vit_forward never applies the last block. Wrong with one block or more.

Grader: named (sequence.py's `loop_short`): "In `vit_forward`, the loop never reaches the
last one: it runs over `params['blocks'][:-1]` ...".
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'vit-forward': 'op:loop_short:vit_forward:block-last-left-out'}


def vit_forward(image, params):
    """Logits (num_classes,) of one image."""
    blocks = params["blocks"]
    x = embed_image(image, params)
    for block, _following in zip(blocks, blocks[1:]):
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return x[0] @ params["W_head"] + params["b_head"]
