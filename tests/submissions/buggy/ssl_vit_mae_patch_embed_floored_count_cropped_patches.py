"""Blind round 34 (b34_15, issue 38): num_patches and patchify ported from vedupandya/SSL-ViT-MAE
(models/vit_blocks.py PatchEmbed: a floor-divided patch count, a Conv2d with kernel_size = stride
= patch_size, then x.flatten(2).transpose(1, 2)).

Mistakes:
1. num_patches: `(H // P) * (W // P)` with no tiling check: a count where ValueError is asked for
   (num_tokens inherits it).
2. patchify: crops the image to what a stride-P conv sees (`image[:gh*P, :gw*P]`) with no
   ValueError (linear_patch_embed and embed_image inherit it).

Grader: at blind time (5712eea) and now, named: "You returned (H // P) * (W // P): floor division
silently drops the pixels that do not fit" on patch-count and "You cropped the pixels that do not
fit" on patchify (visible and hidden). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'floor_division_count', 'patchify': 'patchify_floor_crop'}


def num_patches(H, W, P):
    return (H // P) * (W // P)


def patchify(image, P):
    # what the strided Conv2d(kernel_size=P, stride=P) sees, flattened like flatten(2).transpose(1, 2)
    image = _as_hwc(image)
    H, W, C = image.shape
    gh, gw = H // P, W // P
    x = image[:gh * P, :gw * P]
    x = x.reshape(gh, P, gw, P, C).transpose(0, 2, 1, 3, 4)
    return x.reshape(gh * gw, P * P * C)
