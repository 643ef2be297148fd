"""embed_image forgets [CLS] and adds the patches' positions pos[1:]."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'embed_cls_forgotten'}


def embed_image(image, params):
    tokens = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    return tokens + params["pos"][1:]
