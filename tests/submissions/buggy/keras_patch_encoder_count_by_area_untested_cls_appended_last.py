"""Blind round 38 (b38_01, issue 38): num_patches and embed_image ported from
ImranNust/LungCancerDetection, utilities/VisionTransformer.py (the Keras PatchEncoder:
`self.num_patches`, `self.projection = Dense(units=projection_dim)`, the class token
concatenated after the projected patches, `self.position_embedding(positions)`).

Mistakes:
1. `num_patches` returns `int(H / P * W / P)` (the patch count by area) with no tiling test:
   30 x 32 with P = 16 gets a count where the lecture raises ValueError; num_tokens inherits it.
2. `embed_image` concatenates [CLS] AFTER the patch tokens (`tf.concat([patches_embed,
   class_token], 1)`): [CLS] is the last row, not row 0; the positions are then added row by row.

Grader: at blind time (60400f1) and now, both named: patch-count "2 mistakes at once: (1) In
`num_patches`, there is no tiling test ... (2) ... counted by area, `H * W // (P * P)`" (both
true of the code); cls-and-positions "You appended [CLS] as the last row"; vit-checkpoint
observes the broken embed_image. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:tiling:num_patches:none+op:count_by_area:num_patches:count-by-area',
          'cls-and-positions': 'embed_cls_appended'}


def num_patches(H, W, P):
    """Number of P x P patches in an H x W image (PatchEncoder's self.num_patches)."""
    return int(H / P * W / P)


def embed_image(image, params):
    """PatchEncoder.call: project the patches, add the class token, add the position embeddings."""
    patch = patchify(image, params["P"])
    projection_dim = params["W_e"].shape[1]
    # reshape the class token embedding
    class_token = np.reshape(params["cls"], (1, projection_dim))
    # calculate patches embeddings (self.projection = Dense(units=projection_dim))
    patches_embed = patch @ params["W_e"] + params["b_e"]
    patches_embed = np.concatenate([patches_embed, class_token], 0)
    # calculate positional embeddings (self.position_embedding(positions))
    positions = np.arange(0, patches_embed.shape[0], 1)
    positions_embed = params["pos"][positions]
    # add both embeddings
    encoded = patches_embed + positions_embed
    return encoded
