"""Blind round 9 (b9_05, issue 38): a submission ported from the keras.io example "Image
classification with Vision Transformer" (Patches layer, tf.image.extract_patches).

Mistakes:
1. num_patches: `num_patches = (image_size // patch_size) ** 2` with image_size = H (the
   Keras example resizes every image to image_size x image_size). The tiling check is kept.
   Shows only on non-square images.
   Sources: keras.io/examples/vision/image_classification_with_vision_transformer/
   (`num_patches = (image_size // patch_size) ** 2`, copied in e.g.
   shahjaidev/Vision_Transformers_tf1, kurupdeepak/nutrition vit_config.py);
   faustomorales/vit-keras issue #18 "Support of non-square size image".
2. patchify: extract_patches(..., padding="VALID") semantics: patches that do not fit are
   silently dropped, so no ValueError when P does not tile the image. Shows only on sizes
   that do not tile.
   Sources: the Keras example's `tf.image.extract_patches(..., padding="VALID")`;
   kornia PR #2657 ("folding drops any remainders"); keras-team/keras-core PR #581.

Grader: both named: op:sibling ("`W // P` reads `H` where `W` belongs") and patchify_floor_crop
("You cropped the pixels that do not fit").
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:sibling:num_patches:W-as-H',
          'patchify': 'patchify_floor_crop'}


def num_patches(H, W, P):
    """Number of non-overlapping P x P patches of an H x W image."""
    if P <= 0 or H % P or W % P:
        raise ValueError(f"patch size {P} does not tile a {H}x{W} image")
    image_size = H  # keras.io ViT example: images are resized to image_size x image_size
    return (image_size // P) ** 2


def patchify(image, P):
    """Patches layer of the Keras ViT example: (H, W, C) -> (N, P*P*C)."""
    images = _as_hwc(image)
    height, width, channels = images.shape
    if P <= 0:
        raise ValueError(f"patch size must be positive, got {P}")
    # tf.image.extract_patches(sizes=[1,P,P,1], strides=[1,P,P,1], padding="VALID")
    n_h, n_w = height // P, width // P
    images = images[:n_h * P, :n_w * P]
    patches = images.reshape(n_h, P, n_w, P, channels).transpose(0, 2, 1, 3, 4)
    return patches.reshape(n_h * n_w, P * P * channels)
