"""Blind round 61 (b61_01, issue 38): num_patches and vit_forward ported from kamalkraj/Vision-Transformer
`model.py` (TF2 Keras ViT: `num_patches = (image_size // patch_size) ** 2` with its one-axis
assert; the `mlp_head` built as `Dense(..., activation=gelu)`).

Mistakes:
1. num_patches (lines 14-16 of the file as delivered): counts `(H // P) ** 2` and tests only
   `H % P`: wrong only when H != W (the wrong count, and no ValueError when only W does not
   tile); num_tokens inherits it.
2. vit_forward (line 143): `gelu(x @ W_head + b_head)`, the logits through GELU (the source's
   `Dense(..., activation=gelu)`). Wrong on any input.

Grader: at blind time (90d6c97e) and now, 94/110, both named. Mistake 1 on patch-count's
non-square and random checks ("In `num_patches`, `W // P` reads `H` where `W` belongs: in effect
`H // P`, a copy of its sibling term (right only when H == W)") and, with the tiling half, on its
non-tiling check ("2 mistakes at once: (1) ... tests the height only (`H % P`) ..."). Mistake 2 on
vit-forward's two checks ("the linear map's output ... goes through GELU before it is returned, as
in ... Keras' `Dense(n, activation='gelu')`"); vit-checkpoint observes vit_forward. Every mistake
named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:sibling:num_patches:W-as-H',
          'vit-forward': 'op:stem_activation:vit_forward:result-through-gelu'}
ALIASES = ('op:tiling:num_patches:height-only',)  # mistake 1's one-axis test, with the count


def num_patches(H, W, P):
    if H % P != 0:
        raise ValueError('image dimensions must be divisible by the patch size')
    return (H // P) ** 2


def vit_forward(image, params):
    x = embed_image(image, params)
    for blk in params['blocks']:
        x = encoder_block(x, blk, params['heads'])
    x = layer_norm(x, params['ln_g'], params['ln_b'])
    x = x[0]
    return gelu(x @ params['W_head'] + params['b_head'])
