"""Blind round 71 (b71_02, issue 38): num_patches and layer_norm ported from
yonigottesman/ecg_vit `vit.py` (the Keras ViT: ViTEmbeddings' patch count and
`tf.keras.layers.LayerNormalization()`).

Mistakes:
1. layer_norm (line 89 of the file as delivered): default `eps=1e-3`, tf.keras
   LayerNormalization's default, instead of 1e-6. Wrong whenever eps is left out (about 1e-3 on
   unit-variance rows, large on small-variance rows); an explicit `eps=` is right.
2. num_patches (line 10): only `H % P` is tested (the source counts along one axis), so an image
   whose width P does not divide (32x30, P=8) gets a count instead of ValueError.

Grader: at blind time (3f040026) and now, 104/110. Mistake 1 named on layer-norm ("In
`layer_norm`, eps is 0.001; the student API's is 1e-06."); mistake 2 named on patch-count ("In
`num_patches`, the tiling test ... tests the height only (`H % P`) ... test `W % P` too.").
Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:constant:layer_norm:eps=0.001',
          'patch-count': 'op:tiling:num_patches:height-only'}


def num_patches(H, W, P):
    # num_patches = input_shape[1] // self.patch_size, done for both image axes
    if H % P:
        raise ValueError("patch_size must divide the image height")
    return (H // P) * (W // P)


def layer_norm(x, gamma, beta, eps=1e-3):
    # tf.keras.layers.LayerNormalization()
    mean = np.mean(x, axis=-1, keepdims=True)
    variance = np.var(x, axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(variance + eps) * gamma + beta
