"""Blind round 3 (issue 38): embed_image fills a sequence buffer np.empty((N + 1, d),
dtype=image.dtype) before adding the (float) positions: right for float images, while for an 8-bit
(uint8) image [CLS] and the patch tokens are cut (and wrapped) to 8-bit integers."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'only_float_images'}


def embed_image(image, params):
    patches = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    N, d = patches.shape
    seq = np.empty((N + 1, d), dtype=np.asarray(image).dtype)
    seq[0] = params["cls"]
    seq[1:] = patches
    seq = seq + params["pos"]
    return seq
