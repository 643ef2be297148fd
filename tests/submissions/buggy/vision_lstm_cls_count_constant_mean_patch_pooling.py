"""Blind round 77 (b77_09, issue 38): num_tokens and vit_forward ported from NX-AI/vision-lstm
`src/ksuit/models/poolings/mean_patch.py`.

Mistakes:
1. num_tokens (line 17 of the file as delivered): adds the constant `NUM_CLS_TOKENS` whatever
   `cls_token` is: wrong with cls_token=False.
2. vit_forward (line 117): MeanPatch pooling, the mean of rows 1: after the final LayerNorm,
   instead of the [CLS] row. Wrong on every input.
The delivered file's top-level constant `NUM_CLS_TOKENS` and helper `mean_patch` are nested in
the functions that read them here.

Grader: at blind time (15b4065f) and now, 95/110. Mistake 1 named on token-count ("With
cls_token=False there is no [CLS] row"), mistake 2 on vit-forward ("`x[0]` is read as
`x[1:].mean(axis=0)` ... instead of row 0", with the file's line 109 at blind time; "You pooled
the mean of the patch tokens" on the visible check). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'token-count': 'cls_always',
          'vit-forward': 'op:pool:vit_forward:x[0]-mean-after'}
ALIASES = ('vit_mean_pool',)  # the same pooling, named with the listed misconception's words


def num_tokens(H, W, P, cls_token=True):
    NUM_CLS_TOKENS = 1

    return num_patches(H, W, P) + NUM_CLS_TOKENS


def vit_forward(image, params):
    NUM_CLS_TOKENS = 1

    def mean_patch(all_tokens, num_cls_tokens=NUM_CLS_TOKENS):
        return all_tokens[num_cls_tokens:].mean(axis=0)

    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    x = mean_patch(x)
    return x @ params["W_head"] + params["b_head"]
