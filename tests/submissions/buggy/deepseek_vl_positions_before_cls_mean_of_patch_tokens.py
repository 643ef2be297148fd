"""Blind round 62 (b62_08, issue 38): embed_image and vit_forward ported from deepseek-ai/DeepSeek-VL
`deepseek_vl/models/siglip_vit.py` (VisionTransformer._pos_embed on timm's `no_embed_class` path;
forward_head with `global_pool = "avg"`).

Mistakes:
11. embed_image (lines 66-72 of the file as delivered): timm's `no_embed_class` path: positions
    `pos[:N]` added to the patches before [CLS] is prepended, and [CLS] gets no position. Wrong
    on any input.
12. vit_forward (lines 118 and 124-125): `global_pool = "avg"`: the head reads the mean of the
    patch tokens instead of the [CLS] row. Wrong on any input.

Grader: at blind time (90d6c97e) and now, 91/110, both named. Mistake 11 on cls-and-positions'
three checks (at blind time "In `embed_image`, `x + params['pos']` is added before
`np.vstack([params['cls'], x])`, to the rows of `x` alone, with the first rows of `params['pos']`
..."; now: "In `embed_image`, the model solution's `x + params['pos']` is added before the model
solution's `np.vstack([params['cls'], x])`, to the rows of `x` alone, with the first rows of
`params['pos']` ..."). Mistake 12 on vit-forward's visible check ("You pooled the mean of the patch
tokens. ... this model's head reads the [CLS] row: x[0] after the final LayerNorm.") and, as the
error model says it, on its random check ("In `vit_forward`, `x[0]` is read as `x[1:].mean(axis=0)`
..."); vit-checkpoint observes vit_forward. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': "op:concatenation:embed_image:params['pos']-first-rows-before-vstack",
          'vit-forward': 'vit_mean_pool'}


def embed_image(image, params):
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    pos_embed = params["pos"]
    x = x + pos_embed[:x.shape[0]]
    cls_token = params["cls"][None, :]
    x = np.concatenate([cls_token, x], axis=0)
    return x


def vit_forward(image, params):
    num_prefix_tokens = 1
    global_pool = "avg"
    x = embed_image(image, params)
    for blk in params["blocks"]:
        x = encoder_block(x, blk, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    # forward_head
    if global_pool == "avg":
        x = x[num_prefix_tokens:].mean(axis=0)
    else:
        x = x[0]
    return x @ params["W_head"] + params["b_head"]
