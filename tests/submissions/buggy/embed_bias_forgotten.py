"""embed_image makes its own patch tokens, patchify(image, P) @ W_e, instead of calling
linear_patch_embed, and forgets the bias b_e; [CLS] and the positions are right."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'embed_bias_forgotten'}


def embed_image(image, params):
    patches = patchify(image, params["P"])
    tokens = patches @ params["W_e"]
    seq = np.vstack([params["cls"], tokens])
    return seq + params["pos"]
