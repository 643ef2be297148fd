"""Blind round 5 (b5_07, issue 38): vit_forward written after OpenAI CLIP's VisionTransformer.forward
(transformer, then ln_post on x[:, 0, :], then @ proj).

Mistakes (both in vit_forward):
1. every block runs with the parameters of block 0 (blocks = params["blocks"];
   encoder_block(x, blocks[0], ...) inside the loop over range(len(blocks))). Shows only with
   two or more blocks.
2. the final layer norm is left out: the [CLS] row goes straight to the head. Shows on every
   input.

Grader: Both are named, together, by one hint.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'vit-forward': 'op:skip:vit_forward:skip-layer_norm+op:loop:vit_forward:block-first'}


def vit_forward(image, params):
    """CLIP-style forward: embed, transformer, [CLS] row, head."""
    x = embed_image(image, params)
    blocks = params["blocks"]
    for layer in range(len(blocks)):
        x = encoder_block(x, blocks[0], params["heads"])
    cls_out = x[0, :]
    return cls_out @ params["W_head"] + params["b_head"]
