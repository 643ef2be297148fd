"""embed_image appends [CLS] at the end."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'embed_cls_appended'}


def embed_image(image, params):
    tokens = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    tokens = np.concatenate([tokens, params["cls"][None, :]], axis=0)
    return tokens + params["pos"]
