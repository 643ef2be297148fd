"""Blind round 46 (b46_12, issue 38): num_tokens and vit_forward ported from a TensorFlow
functional ViT, vit/model (code-search file id 21373817167: the encoder's input is
(B, N_PATCH, D_MODEL), no class token; the head is `GlobalAveragePooling1D()` then a Dense with no
activation).

Mistakes:
1. num_tokens returns N whatever `cls_token` is: no row for [CLS] (224/16 -> 196, not 197).
2. vit_forward averages every token (GlobalAveragePooling1D) instead of reading the [CLS] row.

Grader: at blind time (78229091) and now, both named: "[CLS] is a token too: with cls_token=True
the transformer sees N + 1 rows" on token-count, "You averaged every token. This model's head
reads the [CLS] row only" on vit-forward. attention-cost's "a smaller patch versus a larger one"
check calls the file's num_tokens (an observation naming it); vit-checkpoint observes the broken
vit_forward. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'token-count': 'cls_forgotten', 'vit-forward': 'vit_mean_pool_all_tokens'}


def num_tokens(H, W, P, cls_token=True):
    # vit_func: the sequence entering the encoder is (B, N_PATCH, D_MODEL)
    n_patch = num_patches(H, W, P)
    return n_patch


def vit_forward(image, params):
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    # use `GlobalAveragePooling1D` to average over the patch dimension
    # (N_PATCH, D_MODEL) -> (D_MODEL,)
    x = x.mean(axis=0)
    # no activation as this is for logits
    return x @ params["W_head"] + params["b_head"]
