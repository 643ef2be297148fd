"""Blind round 22 (b22_11, issue 38): vit_forward ported from isl-org/DPT (vit.py's forward_flex:
the blocks run with hooks on their outputs and no final norm, since DPT reads the hooked
features).

Mistakes:
1. vit_forward skips the final layer norm: the head reads x[0] straight from the last block.

Grader: at blind time and now (the same commit), named (vit_final_ln_skipped); vit-checkpoint
observes the broken function. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'vit-forward': 'vit_final_ln_skipped'}


def vit_forward(image, params):
    x = embed_image(image, params)
    for blk in params["blocks"]:
        x = encoder_block(x, blk, params["heads"])
    return x[0] @ params["W_head"] + params["b_head"]
