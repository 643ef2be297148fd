"""Written for issue 38 (session 32): vit_forward counts the block index down, from the last
block to block 0.

Mistakes:
1. vit_forward applies the blocks in reverse order. Wrong with two blocks or more.

Grader: named (choices.py's `reversed`): "In `vit_forward`, the loop runs over
`params['blocks']` from its last element to its first ...".
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'vit-forward': 'op:reversed:vit_forward:block-reversed'}


def vit_forward(image, params):
    """Logits (num_classes,) of one image."""
    x = embed_image(image, params)
    for i in range(len(params["blocks"]) - 1, -1, -1):
        x = encoder_block(x, params["blocks"][i], params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return x[0] @ params["W_head"] + params["b_head"]
