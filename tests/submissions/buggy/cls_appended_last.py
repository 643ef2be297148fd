"""Blind round 2 (issue 38), a port with its own mistakes: embed_image appends the [CLS] token
after the patch tokens (row N) instead of prepending it as row 0; vit_forward still reads row 0.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'embed_cls_appended'}


def embed_image(image, params):
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    cls = params["cls"].reshape(1, -1)
    x = np.vstack([x, cls])
    return x + params["pos"]
