"""linear_patch_embed forgets the bias."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'linear-patch-embed': 'linear_embed_bias_forgotten'}


def linear_patch_embed(image, W_e, b_e, P):
    return patchify(image, P) @ W_e
