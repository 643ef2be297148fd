"""Blind round 80 (b80_07, issue 38): embed_image ported from OliverGrainge/TeTRA-VPR
`models/aggregators/cls.py`.

Mistakes:
1. embed_image (lines 80-82 of the file as delivered): positions `pos[:N]` added to the patch
   tokens before [CLS] is prepended, so [CLS] gets no position and every patch gets the one meant
   for the token before it. Wrong on every input (and in vit_forward).

Grader: at blind time (a4b8673f) and now, 98/110, named on cls-and-positions ("`x +
params['pos']` is added before ... `np.vstack([params['cls'], x])` ... each row of `x` gets the
one meant for the row before it"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': "op:concatenation:embed_image:params['pos']-first-rows-before-vstack"}


def embed_image(image, params):
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    N = x.shape[0]
    x = x + params["pos"][:N]
    return np.concatenate([params["cls"][None, :], x], axis=0)
