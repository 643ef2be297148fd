"""The patch bias b_e added to every row, [CLS] included."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'embed_cls_bias'}


def embed_image(image, params):
    x = patchify(image, params["P"]) @ params["W_e"]
    x = np.concatenate([params["cls"][None, :], x], axis=0)
    return x + params["b_e"] + params["pos"]
