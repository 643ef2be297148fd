"""Three bugs along the embedding and attention: linear_patch_embed forgets its bias, embed_image
forgets the positions on top of it, and softmax drops keepdims. vit_forward, encoder_block and
self_attention are right."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'linear-patch-embed': 'linear_embed_bias_forgotten',
          'cls-and-positions': 'embed_positions_forgotten',
          'stable-softmax': 'softmax_without_keepdims', 'why-positions': 'bag_of_tiles'}


def linear_patch_embed(image, W_e, b_e, P):
    return patchify(image, P) @ W_e


def embed_image(image, params):
    tokens = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    return np.concatenate([params["cls"][None, :], tokens], axis=0)


def softmax(x, axis=-1):
    shifted = np.exp(x - np.max(x, axis=axis))
    return shifted / np.sum(shifted, axis=axis)
