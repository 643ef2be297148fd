"""Blind round 3 (b3_15, issue 38), a port with two mistakes: embed_image fills a preallocated
buffer np.empty((N + 1, d), dtype=image.dtype) before adding the float positions, so for an 8-bit
(uint8) image [CLS] and the patch tokens are cut to integers (right for float images: observed as
such); vit_forward's final layer_norm is indented into the loop over the blocks, so it runs
after every block (right with one block).
Since session 15 the buffer is named (dtypes.assembled_narrowed: `np.vstack([params['cls'],
x])` built in the image's dtype): every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'op:assembled_narrowed:embed_image:vstack-in-image-dtype',
          'vit-forward': "op:indentation:vit_forward:layer_norm(xparams['ln_g']params['ln_b']-in-loop"}


def embed_image(image, params):
    """Fill a (N + 1, d) buffer: [CLS] in row 0, the patch tokens below, then add positions."""
    patches = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    N, d = patches.shape
    seq = np.empty((N + 1, d), dtype=np.asarray(image).dtype)
    seq[0] = params["cls"]
    seq[1:] = patches
    seq = seq + params["pos"]
    return seq


def vit_forward(image, params):
    """Embed, blocks, final norm, [CLS] through the head."""
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
        x = layer_norm(x, params["ln_g"], params["ln_b"])
    return x[0] @ params["W_head"] + params["b_head"]
