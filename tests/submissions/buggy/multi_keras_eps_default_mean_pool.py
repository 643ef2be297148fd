"""The Keras ViT example ported: layers.LayerNormalization's default epsilon=1e-3 kept in
layer_norm, and the classifier reads the mean of all tokens (the example flattens every patch's
representation; the student averaged them instead) rather than the [CLS] row."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:constant:layer_norm:eps=0.001',
          'vit-forward': 'vit_mean_pool_all_tokens'}


def layer_norm(x, gamma, beta, eps=1e-3):
    mean = np.mean(x, axis=-1, keepdims=True)
    variance = np.mean((x - mean) ** 2, axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(variance + eps) * gamma + beta


def vit_forward(image, params):
    encoded_patches = embed_image(image, params)
    for block in params["blocks"]:
        encoded_patches = encoder_block(encoded_patches, block, params["heads"])
    representation = layer_norm(encoded_patches, params["ln_g"], params["ln_b"])
    representation = representation.mean(axis=0)
    return representation @ params["W_head"] + params["b_head"]
