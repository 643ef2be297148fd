"""Blind round 46 (b46_03, issue 38): num_patches and vit_forward ported from a TF/Keras
VisionTransformer(tf.keras.Model) (code-search file id 24093525098: `num_patches = (image_size //
patch_size) ** 2`, `mlp_head = Sequential([LayerNormalization(epsilon=1e-6), Dense(mlp_dim,
activation=tfa.activations.gelu), ...])`, the class token x[:, 0] classified).

Mistakes:
1. num_patches: the source's square `image_size`: `(H // P) ** 2`, and the tiling test on H only.
   Right for square images only ((224, 160, 16) -> 196, not 140).
2. vit_forward: the head's Dense has activation=gelu, so the logits go through GELU.

Grader: at blind time (78229091) and now, both named: "In `num_patches`, `W // P` reads `H` where
`W` belongs ... (right only when H == W)" on non-square cases, with "the tiling test
`check_tiling(H, W, P)` tests the height only (`H % P`)" on the hidden non-tiling check (2
mistakes at once); "the linear map's output ... goes through GELU before it is returned, as in
... Keras' `Dense(n, activation='gelu')`" on vit-forward. token-count is graded with the
grader's num_patches; vit-checkpoint observes the broken vit_forward. Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:tiling:num_patches:height-only+op:sibling:num_patches:W-as-H',
          'vit-forward': 'op:stem_activation:vit_forward:result-through-gelu'}


def num_patches(H, W, P):
    # VisionTransformer.__init__: image_size, patch_size
    image_size, patch_size = H, P
    if patch_size <= 0 or image_size % patch_size:
        raise ValueError(f"image size {image_size} must be divisible by patch size {patch_size}")
    return (image_size // patch_size) ** 2


def vit_forward(image, params):
    x = embed_image(image, params)
    for layer in params["blocks"]:
        x = encoder_block(x, layer, params["heads"])
    # First (class token) is used for classification
    x = x[0]
    # mlp_head: LayerNormalization(epsilon=1e-6) then Dense(..., activation=gelu)
    x = layer_norm(x, params["ln_g"], params["ln_b"], eps=1e-6)
    return gelu(x @ params["W_head"] + params["b_head"])
