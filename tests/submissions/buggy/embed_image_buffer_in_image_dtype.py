"""Blind round 3 (issue 38): embed_image fills a sequence buffer np.empty((N + 1, d),
dtype=image.dtype) before adding the (float) positions: right for float images, while for an 8-bit
(uint8) image [CLS] and the patch tokens are cut (and wrapped) to 8-bit integers.
Since session 15 the buffer is named (dtypes.assembled_narrowed: `np.vstack([params['cls'],
x])` built in the image's dtype): every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'op:assembled_narrowed:embed_image:vstack-in-image-dtype'}


def embed_image(image, params):
    patches = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    N, d = patches.shape
    seq = np.empty((N + 1, d), dtype=np.asarray(image).dtype)
    seq[0] = params["cls"]
    seq[1:] = patches
    seq = seq + params["pos"]
    return seq
