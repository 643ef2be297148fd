"""Blind round 65 (b65_06, issue 38): vit_forward and ANSWERS ported from PaddlePaddle/PaddleClas
`ppcls/arch/backbone/model_zoo/distilled_vision_transformer.py` (DistilledVisionTransformer:
forward_features returns x[:, 0] and x[:, 1]; forward averages the two heads).

Mistakes:
8. vit_forward (lines 187-191 of the file as delivered): `(head(x[0]) + head(x[1])) / 2`, DeiT's
   [CLS] and distillation logits averaged; the lab has no distillation token, so row 1 is the
   first patch token. Wrong on any input.
9. ANSWERS["medical"] (line 201) is "scratch" (argued from DeiT's data-efficient training) where
   the answer is "pretrained".

Grader: at blind time (0cd43d22) and now, 96/110, both named. Mistake 8 on vit-forward's two
checks ("In `vit_forward`, `x[0]` is read as `x[0:2].mean(axis=0)`: rows 0 and 1 averaged (as
DeiT's head averages its [CLS] and distillation tokens), instead of row 0 alone."); vit-checkpoint
observes vit_forward. Mistake 9 on pretrained-or-scratch ("A from-scratch ViT needs a large image
set ... start from a pretrained tower (or a CNN)."). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'vit-forward': 'op:pool:vit_forward:x[0]-mean-with-next',
          'pretrained-or-scratch': 'medical:scratch'}


def vit_forward(image, params):
    """Logits of one image, after DistilledVisionTransformer.forward_features / forward."""
    x = embed_image(image, params)
    for blk in params["blocks"]:
        x = encoder_block(x, blk, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    x, x_dist = x[0], x[1]

    x = x @ params["W_head"] + params["b_head"]
    x_dist = x_dist @ params.get("W_head_dist", params["W_head"]) + params.get("b_head_dist", params["b_head"])
    return (x + x_dist) / 2


ANSWERS["medical"] = "scratch"
