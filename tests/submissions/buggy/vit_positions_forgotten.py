"""vit_forward builds its own token sequence instead of calling embed_image: [CLS] prepended to
linear_patch_embed's tokens, but the positions params["pos"] are never added, so the blocks see a
bag of tiles."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'vit-forward': 'vit_positions_forgotten'}


def vit_forward(image, params):
    patches = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    x = np.concatenate([params["cls"].reshape(1, -1), patches])
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    return x[0] @ params["W_head"] + params["b_head"]
