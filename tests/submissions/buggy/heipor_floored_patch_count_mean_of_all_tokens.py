"""Blind round 79 (b79_11, issue 38): num_patches and vit_forward ported from xywwwsnnd/Heipor
`vit_model/vit_transformer/attention.py` (with its Embeddings' grid and the encoder's norm).

Mistakes:
1. num_patches (lines 11-15 of the file as delivered): the grid floored like the source's
   `img_size // patch`, never a ValueError: 7x8 with P=2 gives 12. Right on tiling sizes.
2. vit_forward (line 151): the head reads the mean over all the tokens (the source has no
   [CLS]) instead of the [CLS] row: wrong on every input.
The delivered file's top-level helper `_pair` is nested in num_patches here.

Grader: at blind time (50c6c808) and now, 96/110. Mistake 1 named on patch-count ("Your count is
the floored one, (H // P) * (W // P) ... raise ValueError instead of rounding"), mistake 2 on
vit-forward ("You averaged every token. This model's head reads the [CLS] row only"). Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'floor_division_count', 'vit-forward': 'vit_mean_pool_all_tokens'}


def num_patches(H, W, P):
    def _pair(x):
        return x if isinstance(x, tuple) else (x, x)

    img_size = _pair(H) if W is None else (H, W)
    patch = _pair(P)
    grid_size = (img_size[0] // patch[0], img_size[1] // patch[1])
    return grid_size[0] * grid_size[1]


def vit_forward(image, params):
    hidden_states = embed_image(image, params)
    for layer_block in params["blocks"]:
        hidden_states = encoder_block(hidden_states, layer_block, params["heads"])
    encoded = layer_norm(hidden_states, params["ln_g"], params["ln_b"])   # encoder_norm
    pooled = encoded.mean(axis=0)
    return pooled @ params["W_head"] + params["b_head"]
