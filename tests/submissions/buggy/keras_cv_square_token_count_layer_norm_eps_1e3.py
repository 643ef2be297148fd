"""Blind round 17 (b17_06, issue 38): num_tokens and layer_norm ported from keras-cv / keras-hub's
ViT layers (PatchingAndEmbedding's `num_patches = (image_size // patch_size) ** 2`,
keras.layers.LayerNormalization's default epsilon).

Mistakes:
1. num_tokens counts the patches as `(H // P) ** 2` (+1 with [CLS]), written for square images,
   instead of (H // P) * (W // P) (shows only on non-square images; the tiling check is kept).
2. layer_norm's default eps is 1e-3 (Keras' epsilon) instead of 1e-6.

Grader: at blind time and now, both named (`W // P` reading H, a copy of its sibling term; eps
0.001 instead of 1e-06). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'token-count': 'op:sibling:num_tokens/num_patches:W-as-H',
          'layer-norm': 'op:constant:layer_norm:eps=0.001'}


def num_tokens(H, W, P, cls_token=True):
    """keras-cv PatchingAndEmbedding: num_patches = (image_size // patch_size) ** 2, + [CLS]."""
    if H % P != 0 or W % P != 0:
        raise ValueError("image_size must be divisible by patch_size")
    n = (H // P) ** 2
    return n + 1 if cls_token else n


def layer_norm(x, gamma, beta, eps=1e-3):
    """keras.layers.LayerNormalization, with its default epsilon."""
    mean = np.mean(x, axis=-1, keepdims=True)
    variance = np.mean(np.square(x - mean), axis=-1, keepdims=True)
    inv = 1.0 / np.sqrt(variance + eps)
    return (x - mean) * inv * gamma + beta
