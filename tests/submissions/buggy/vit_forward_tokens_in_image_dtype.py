"""vit_forward with the embedding written out, its token buffer np.zeros((N + 1, d),
dtype=image.dtype): right for float images, while for an 8-bit (uint8) image [CLS] and the patch
tokens are cut (and wrapped) to 8-bit integers before the positions are added.
Since session 15: its vit-forward mistake is observed (only_float_images), not named, so in
unnamed/.
Since session 17 it is named (dtypes.step_assembled_narrowed: embed_image's assembled
`np.vstack([cls, x])` built in the image's dtype, where vit_forward calls embed_image whole):
every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'vit-forward': ('op:step_assembled_narrowed:vit_forward:'
                          'embed_image-assembled-in-image-dtype')}


def vit_forward(image, params):
    patches = patchify(image, params["P"]) @ params["W_e"] + params["b_e"]
    x = np.zeros((len(patches) + 1, patches.shape[1]), dtype=image.dtype)
    x[0] = params["cls"]
    x[1:] = patches
    x = x + params["pos"]
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return x[0] @ params["W_head"] + params["b_head"]
