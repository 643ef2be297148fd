"""A TensorFlow-tutorial LayerNorm, eps added to the standard deviation (outside the root), and
an embed_image written from HF's ViTEmbeddings that projects the patches without the bias b_e.
Two mistakes in two functions."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'layer_norm_eps_outside', 'cls-and-positions': 'embed_bias_forgotten'}


def layer_norm(x, gamma, beta, eps=1e-6):
    mean = np.mean(x, axis=-1, keepdims=True)
    std = np.std(x, axis=-1, keepdims=True)
    return gamma * (x - mean) / (std + eps) + beta


def embed_image(image, params):
    embeddings = patchify(image, params["P"]) @ params["W_e"]
    cls_tokens = params["cls"][None, :]
    embeddings = np.concatenate((cls_tokens, embeddings), axis=0)
    return embeddings + params["pos"]
