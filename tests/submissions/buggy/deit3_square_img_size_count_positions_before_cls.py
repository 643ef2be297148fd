"""Blind round 26 (b26_06, issue 38): num_patches and embed_image ported from
facebookresearch/deit's DeiT III (models_v2.py: PatchEmbed's `num_patches = (img_size //
patch_size) ** 2` for a square img_size; `vit_models.forward_features` adding `pos_embed` to the
patches before concatenating the class token).

Mistakes:
1. num_patches squares the height's count, `(H // P) ** 2`, and tests only H % P: wrong on
   non-square images, and a width P does not tile is not refused.
2. embed_image adds pos[1:] to the patches before prepending [CLS]: [CLS] gets no position.

Grader: at blind time and now, both named: `W // P` reading `H`, a copy of its sibling term, on
patch-count (with the observation that only a height P does not tile is refused); the positions
added before prepending [CLS] on cls-and-positions; vit-checkpoint observes the broken
embed_image. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:sibling:num_patches:W-as-H',
          'cls-and-positions': 'embed_positions_before_cls'}


def num_patches(H, W, P):
    # deit PatchEmbed(img_size=224, patch_size=16): num_patches = (img_size // patch_size) ** 2
    img_size, patch_size = H, P
    if patch_size <= 0 or img_size % patch_size:
        raise ValueError(f"img_size {img_size} is not divisible by patch_size {patch_size}")
    return (img_size // patch_size) ** 2


def embed_image(image, params):
    # vit_models.forward_features (DeiT III)
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    cls_tokens = params["cls"][None, :]
    x = x + params["pos"][1:]
    x = np.concatenate((cls_tokens, x), axis=0)
    return x
