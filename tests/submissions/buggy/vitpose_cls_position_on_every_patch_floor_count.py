"""Blind round 24 (b24_08, issue 38): num_patches and embed_image ported from ViTAE-Transformer's
ViTPose (vit.py: PatchEmbed's `num_patches = (img_size[1] // patch_size[1]) * (img_size[0] //
patch_size[0]) * (ratio ** 2)`; forward_features' `x = x + self.pos_embed[:, 1:] +
self.pos_embed[:, :1]`).

Mistakes:
1. embed_image adds pos[0], the [CLS] position, to every patch row as well as its own.
2. num_patches floors and never raises ValueError.

Grader: at blind time the positions were only observed ("only in 1 of 7 rows (row 0)") and the
count named; now both named: `params['pos'][0]` added to every later row on cls-and-positions
(since 52f7c42), and floor division on patch-count; vit-checkpoint observes the broken
embed_image. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'floor_division_count',
          'cls-and-positions': "op:first_row_to_all:embed_image:params['pos'][0]-to-every-row"}


def num_patches(H, W, P, ratio=1):
    """PatchEmbed.num_patches"""
    return (W // P) * (H // P) * (ratio ** 2)


def embed_image(image, params):
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    pos = params["pos"]
    x = x + pos[1:] + pos[:1]
    cls_token = params["cls"] + pos[0]
    return np.concatenate([cls_token[None, :], x], axis=0)
