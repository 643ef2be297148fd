"""Blind round 42 (b42_05, issue 38): embed_image ported from a numpy ViT-from-scratch script
(code-search file id 9618574247: class_embedding() with np.concatenate([class_tokens,
patch_embeddings], axis=1), add_positional_encoding() with a sin/cos table `pos / 10000 **
((2 * i) / D)`). The student's helpers are nested in embed_image.

Mistakes:
1. embed_image adds a fixed sine/cosine table of its own and never uses the learned
   params["pos"]. [CLS] is prepended correctly as row 0. Every embed_image test differs.

Grader: at blind time (e77cb46), observed only: cls-and-positions' worked example, RGB and
hidden checks got the true checklist "The sequence is [CLS] (row 0) followed by the N patch
tokens, then + pos"; no hint said that params["pos"] is unused. Now named on every
cls-and-positions check (sinusoids.positions_sinusoid, the `doubled` exponent: params["pos"]
never read, the paper's 1-D sine-cosine table added in its place with the angle t / 10000 **
(2i / d), i the even column itself). vit-checkpoint observes embed_image, not in EXPECT. Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'op:positions_sinusoid:embed_image:pos-as-sinusoid-doubled'}


def embed_image(image, params):
    """class_embedding then add_positional_encoding, on a batch of one image."""
    patch_embeddings = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])[None]

    def class_embedding(patch_embeddings, class_token):
        N, num_patches, D = patch_embeddings.shape
        # Repeat class token for each image in batch (N, 1, D)
        class_tokens = np.tile(class_token, (N, 1, 1))
        # Prepend class token to patch embeddings -> (N, num_patches + 1, D)
        return np.concatenate([class_tokens, patch_embeddings], axis=1)

    def add_positional_encoding(class_embedded):
        N, num_patches_plus_one, D = class_embedded.shape
        pos_encoding = np.zeros((num_patches_plus_one, D))
        for pos in range(num_patches_plus_one):
            for i in range(0, D, 2):
                pos_encoding[pos, i] = np.sin(pos / 10000 ** ((2 * i) / D))
                if i + 1 < D:
                    pos_encoding[pos, i + 1] = np.cos(pos / 10000 ** ((2 * i) / D))
        return class_embedded + pos_encoding

    class_embedded = class_embedding(patch_embeddings, np.asarray(params["cls"]).reshape(1, -1))
    return add_positional_encoding(class_embedded)[0]
