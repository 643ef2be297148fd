"""Blind round 65 (b65_12, issue 38): num_patches ported from sayakpaul/deit-tf
`vit/model_configs/base_config.py` (`config.num_patches = (config.image_size //
config.patch_size) ** 2`, image_size the resolution).

Mistakes:
16. num_patches (lines 15-18 of the file as delivered): `(image_size // patch_size) ** 2` with
    `image_size = H`, a square resolution. Wrong only when H != W (num_tokens inherits it).
17. num_patches (line 18): floored, with no tiling test: no ValueError when P does not divide H or
    W (224 / 15 gives 196). Wrong only on sizes that do not tile.

Grader: at blind time (0cd43d22) and now, 105/110, both named. Mistake 16 on patch-count's
non-square and random checks ("In `num_patches`, the model solution's `W // P` reads `H` where `W`
belongs: a copy of its sibling term."). Mistake 17 with it on the two tiling checks ("2 mistakes at
once: (1) In `num_patches`, there is no tiling test ... raise ValueError when P does not divide H
or W. (2) ..."). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:tiling:num_patches:none+op:sibling:num_patches:W-as-H'}


def num_patches(H, W, P):
    """config.num_patches = (config.image_size // config.patch_size) ** 2 (deit-tf base_config)."""
    resolution = H                     # config.input_shape = (resolution, resolution, 3)
    image_size = resolution
    patch_size = P
    return (image_size // patch_size) ** 2
