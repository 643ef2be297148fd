"""Blind round 15 (b15_13, issue 38): a Lab 4 notebook exported to a script: vit_forward after a
tinygrad ViT example (the [CLS] row kept in a variable), the answers retyped in a last cell.

Mistakes:
1. vit_forward takes the [CLS] row (cls = x[0]) right after embed_image, before the blocks, and
   applies the final layer_norm and head to that stale row: the logits never depend on the blocks.
2. A last cell rebinds ANSWERS = {"positions": "permutation"}, dropping "medical" and
   "causal_mask". The builder replaces only the solution's own lines and cannot rebind ANSWERS
   after them, so it is written below as the solution's last two ANSWERS lines: the first empties
   ANSWERS and puts back "positions" (the student's dict), the second leaves "causal_mask" at None
   (not missing, as in the student's file: both are "not answered yet").

Grader: at blind time and now, the stale row gets only vit_forward's checklist; the answers are
observed only as "ANSWERS['causal_mask'] is not answered yet" (and the same for 'medical', without
a hint label). Nothing named.
Since the eleventh session the stale row is named (the loop's result never used).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'vit-forward': 'op:loop_unused:vit_forward:x-from-before-block-loop', 'no-causal-mask': None, 'pretrained-or-scratch': None}


def vit_forward(image, params):
    """Logits of one image (tinygrad ViT example: keep the class token, run the blocks, norm, head)."""
    x = embed_image(image, params)
    cls = x[0]
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    cls = layer_norm(cls, params["ln_g"], params["ln_b"])
    return cls @ params["W_head"] + params["b_head"]


# the student's last cell: ANSWERS = {"positions": "permutation"} (see the docstring)
ANSWERS["medical"] = ANSWERS.clear() or ANSWERS.update({"positions": "permutation"})
ANSWERS["causal_mask"] = ANSWERS.pop("medical")
