"""Positions added to the patches before [CLS] is prepended: [CLS] gets none."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'embed_positions_before_cls'}


def embed_image(image, params):
    patches = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    patches = patches + params["pos"][1:]
    return np.vstack([params["cls"], patches])
