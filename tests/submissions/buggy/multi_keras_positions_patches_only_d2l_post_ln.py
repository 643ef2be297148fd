"""Keras's PatchEncoder (positions for the patches only, pos[:N]; the [CLS] row gets none) and
d2l.ai's TransformerEncoderBlock (AddNorm: the LayerNorm after each residual, post-LN). Two
mistakes in two functions."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': "op:concatenation:embed_image:params['pos']-first-rows-before-vstack",
          'encoder-block': 'encoder_post_ln'}


def embed_image(image, params):
    patches = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    encoded = patches + params["pos"][:len(patches)]
    return np.concatenate([params["cls"][None, :], encoded], axis=0)


def encoder_block(x, p, heads):
    y = layer_norm(x + self_attention(x, p, heads), p["ln1_g"], p["ln1_b"])
    ffn = gelu(y @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    return layer_norm(y + ffn, p["ln2_g"], p["ln2_b"])
