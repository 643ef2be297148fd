"""Blind round 64 (b64_07, issue 38): vit_forward's head ported from luxonis/luxonis-train
`luxonis_train/nodes/heads/transformer_classification_head.py` (TransformerClassificationHead).

Mistakes:
8. vit_forward (lines 185 and 198 of the file as delivered): the source's default
   `use_cls_token=False` kept, so the logits come from `x.mean(axis=0)` over every token
   ([CLS] included) instead of the [CLS] row. Wrong on any input.

Grader: at blind time (0cd43d22) and now, 98/110, named. Mistake 8 on vit-forward's two checks
("You averaged every token. This model's head reads the [CLS] row only: x[0] after the final
LayerNorm."); vit-checkpoint observes vit_forward. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'vit-forward': 'vit_mean_pool_all_tokens'}


def vit_forward(image, params, use_cls_token=False):
    """Logits (num_classes,) of one image (section 3 step 6).

    embed_image, every block of params["blocks"] with params["heads"], the final layer_norm
    (ln_g, ln_b), then the head: x[0] if use_cls_token else the mean over tokens, through W_head.
    """
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    if use_cls_token:
        feat = x[0]
    else:
        feat = x.mean(axis=0)
    return feat @ params["W_head"] + params["b_head"]
