"""Blind round 36 (b36_07, issue 38): embed_image and vit_forward ported from
tomerda3/Final_Project, transformer/patch_encoder.py (PatchEncoder: tf.concat([patches_embed,
class_token], 1), positions in index order) and transformer/create_model.py (create_vit_model:
GlobalAveragePooling1D after the final LayerNorm).

Mistakes:
1. embed_image appends [CLS] as the last row instead of row 0.
2. vit_forward averages every token instead of reading the [CLS] row.

Grader: at blind time (9ebbf4a) and now, both named: "You appended [CLS] as the last row" on
cls-and-positions, "You averaged every token" on vit-forward (graded with the grader's
embed_image standing in). In buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'embed_cls_appended', 'vit-forward': 'vit_mean_pool_all_tokens'}


def embed_image(image, params):
    """PatchEncoder.call for one image: projection, class token, position embedding."""
    projection_dim = params["W_e"].shape[1]
    patch = patchify(image, params["P"])
    num_patches = patch.shape[0]
    class_token = np.reshape(params["cls"], (1, projection_dim))
    # calculate patches embeddings
    patches_embed = patch @ params["W_e"] + params["b_e"]        # Dense(units=projection_dim)
    patches_embed = np.concatenate([patches_embed, class_token], 0)
    # calculate positional embeddings
    positions = np.arange(0, num_patches + 1, 1)
    positions_embed = params["pos"][positions]
    encoded = patches_embed + positions_embed
    return encoded


def vit_forward(image, params):
    """create_vit_model: PatchEncoder, TransformerEncoder (blocks + norm), pooling, classifier."""
    patches_embed = embed_image(image, params)
    representation = patches_embed
    for block in params["blocks"]:
        representation = encoder_block(representation, block, params["heads"])
    representation = layer_norm(representation, params["ln_g"], params["ln_b"])
    representation = np.mean(representation, axis=0)            # GlobalAveragePooling1D()
    logits = representation @ params["W_head"] + params["b_head"]
    return logits
