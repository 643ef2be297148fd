"""Blind round 83 (b83_03, issue 38): num_patches and embed_image ported from
cao1124/lymph_node_ultrasound `良恶性分类代码/utils/posembed.py`.

Mistakes:
1. num_patches (lines 7-10 of the file as delivered): the source's square `grid_size = H // P`,
   squared, and only `H % P` tested: wrong on non-square images (8 x 12 with P = 4 gives 4), no
   ValueError when only W does not tile (num_tokens inherits it).
2. embed_image (lines 69-70): `pos[1:]` added to the patches before [CLS] is prepended (the
   MAE-style split, without its cls part), so [CLS] never gets `pos[0]`.

Grader: at blind time (2774dae9) and now, 96/110. Mistake 1 named on patch-count ("the model
solution's `W // P` reads `H` where `W` belongs ... (right only when H == W)" and "tests the
height only (`H % P`) ... test `W % P` too"); mistake 2 named on cls-and-positions ("You added
the positions before prepending [CLS], so the patches got pos[1:] and [CLS] got no position at
all."). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:tiling:num_patches:height-only+op:sibling:num_patches:W-as-H',
          'cls-and-positions': 'embed_positions_before_cls'}


def num_patches(H, W, P):
    if H % P != 0:
        raise ValueError("image size must be divisible by patch size")
    grid_size = H // P
    return grid_size * grid_size


def embed_image(image, params):
    pos_embed = params["pos"]
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    x = x + pos_embed[1:, :]
    x = np.concatenate([params["cls"][np.newaxis, :], x], axis=0)
    return x
