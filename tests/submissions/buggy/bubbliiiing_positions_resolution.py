"""Blind round 59 (b59_15, issue 38): ANSWERS ported from bubbliiiing/classification-pytorch
`nets/vit.py` (its VisionTransformer interpolates the position embeddings to new input sizes).
The rest of the file, a port of its GELU, PatchEmbed, Attention, Mlp, Block and
VisionTransformer, is right (its MLP uses the source's tanh-approximate GELU, which the spec
accepts: about 5e-4 from the erf GELU in encoder_block and vit_forward; not a mistake).

Mistakes:
24. ANSWERS["positions"] (line 149 of the file as delivered; a dict literal there) is
    "resolution" where the answer is "permutation".

Grader: at blind time (528b2ec3) and now, 108/110, named on why-positions ("Positions do not let
a ViT take larger images ... They are there because attention is permutation-equivariant").
Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'why-positions': 'positions:resolution'}

ANSWERS["positions"] = "resolution"
