"""Blind round 83 (b83_11, issue 38): vit_forward ported from HJacksons/thesis
`src/models_/ViT/ViT_config.py`.

Mistakes:
1. vit_forward (line 124 of the file as delivered): the head reads `x.mean(axis=0)`, the mean
   of every token after the final LayerNorm, instead of the [CLS] row `x[0]`.

Grader: at blind time (2774dae9) and now, 98/110. Mistake 1 named on vit-forward ("You averaged
every token. This model's head reads the [CLS] row only: x[0] after the final LayerNorm.").
Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'vit-forward': 'vit_mean_pool_all_tokens'}


def vit_forward(image, params):
    x = embed_image(image, params)
    for blk in params["blocks"]:
        x = encoder_block(x, blk, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return x.mean(axis=0) @ params["W_head"] + params["b_head"]
