"""Blind round 20 (b20_14, issue 38): num_patches and vit_forward ported from IBM/CrossViT
(models/crossvit.py: `_compute_num_patches(img_size, patches)` returning `[i // p * i // p for i,
p in zip(img_size, patches)]`, img_size one int per branch; the blocks applied in a loop, norm,
then the head on x[:, 0]). The student's top-level helpers `_check_tiles` and
`_compute_num_patches` are nested in num_patches here: the builder replaces only the solution's
own definitions.

Mistakes:
1. num_patches counts H // P * H // P, the image side used for both sides as CrossViT's square
   img_size int: right for square images only.
2. vit_forward's block loop writes `out = encoder_block(x, ...)` and never updates x (a stale
   variable), so only the last block runs, on the embedded tokens: wrong with two or more blocks.

Grader: at blind time and now, both named: "`W // P` reads `H` where `W` belongs" (op:sibling) and
"`encoder_block(x, block, params['heads'])` is not chained" (op:unchained); vit-checkpoint
observes the broken vit_forward. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:sibling:num_patches:W-as-H',
          'vit-forward': 'op:unchained:vit_forward:x-not-carried'}


def num_patches(H, W, P):
    def _check_tiles(H, W, P):
        if P <= 0 or H % P != 0 or W % P != 0:
            raise ValueError(f"Input image size ({H}*{W}) is not a multiple of the patch size {P}.")

    def _compute_num_patches(img_size, patches):
        return [i // p * i // p for i, p in zip(img_size, patches)]

    _check_tiles(H, W, P)
    return _compute_num_patches([H], [P])[0]


def vit_forward(image, params):
    x = embed_image(image, params)
    out = x
    for blk in params["blocks"]:
        out = encoder_block(x, blk, params["heads"])
    out = layer_norm(out, params["ln_g"], params["ln_b"])
    return out[0] @ params["W_head"] + params["b_head"]
