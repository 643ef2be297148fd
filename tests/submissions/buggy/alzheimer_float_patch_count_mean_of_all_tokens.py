"""Blind round 78 (b78_11, issue 38): num_patches and vit_forward ported from
HenriSmidt/Alzheimer_Detection `NOTES.md` ("mean over all slices for final prediction").

Mistakes:
1. num_patches (line 11 of the file as delivered): `(H / P) * (W / P)`, a float (196.0); its
   num_tokens returns a float too. The value is right, the type wrong.
2. vit_forward (lines 122-124): the head reads the mean over all tokens instead of the [CLS]
   row: wrong on every image.

Grader: at blind time (ddfccf96) and now, 93/110. Mistake 1 named on patch-count ("In
`num_patches`, the number is right but it is a float (at your line `return (H / P) * (W /
P)`)"), mistake 2 on vit-forward ("You averaged every token. This model's head reads the [CLS]
row only: x[0] after the final LayerNorm."). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'pixels_over_patch_area', 'vit-forward': 'vit_mean_pool_all_tokens'}


def num_patches(H, W, P):
    if H % P or W % P:
        raise ValueError("P does not tile H x W")
    return (H / P) * (W / P)


def vit_forward(image, params):
    x = embed_image(image, params)
    for blk in params["blocks"]:
        x = encoder_block(x, blk, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    # mean over all tokens for the final prediction
    pooled = x.mean(axis=0)
    return pooled @ params["W_head"] + params["b_head"]
