"""Blind round 34 (b34_13, issue 38): vit_forward ported from cvogtlaender/mif-deep-learning
(models/vit_cls_gap.py, ViT_CLS_GAP.forward: forward_features (embeddings, blocks, final norm),
then `cls_token + patch_tokens.mean(dim=1)` into the classifier).

Mistakes:
1. The head reads the [CLS] row plus the mean of the patch tokens (the source's CLS + GAP
   combination) instead of the [CLS] row alone.

Grader: at blind time (5712eea) and now, not named: both vit-forward checks get only the generic
checklist ("vit_forward reuses embed_image, encoder_block and layer_norm: make those exercises
pass first. Then check the order: ... and the [CLS] row (row 0) through W_head, b_head ...");
vit-checkpoint observes it. Since the name34 merge, named on both vit-forward checks
(readouts.row_plus_pooling: "`x[0]` is read as `x[0] + x[1:].mean(axis=0)`"), so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'vit-forward': 'op:row_plus_pooling:vit_forward:x[0]-plus-mean-after'}


def vit_forward(image, params):
    # forward_features: embeddings, blocks, final norm
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    tokens = layer_norm(x, params["ln_g"], params["ln_b"])

    cls_token = tokens[0]
    patch_tokens = tokens[1:]

    gap = patch_tokens.mean(axis=0)
    combined = cls_token + gap

    out = combined @ params["W_head"] + params["b_head"]
    return out
