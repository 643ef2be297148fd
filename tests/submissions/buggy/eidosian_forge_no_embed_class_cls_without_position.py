"""Blind round 69 (b69_09, issue 38): embed_image ported from Ace1928/eidosian_forge
`archive_forge/code/func__pos_embed.py` (timm's _pos_embed).

Mistakes:
1. embed_image (line 131 of the file as delivered): the `no_embed_class` branch, pos[1:] added
   to the patches first and [CLS] prepended afterwards without pos[0]. Row 0 wrong whenever
   pos[0] != 0, through vit_forward too.

Grader: at blind time (cb37e6da) and now, 100/110, named on cls-and-positions ("You added the
positions before prepending [CLS], so the patches got pos[1:] and [CLS] got no position at
all"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'embed_positions_before_cls'}


def embed_image(image, params):
    """_pos_embed (no_embed_class branch): positions on the patches, then [CLS] prepended."""
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    pos_embed = params["pos"]
    no_embed_class = True
    if no_embed_class:
        x = x + pos_embed[1:]            # the patch positions
        x = np.concatenate((params["cls"][None, :], x), axis=0)
    else:
        x = np.concatenate((params["cls"][None, :], x), axis=0)
        x = x + pos_embed
    return x
