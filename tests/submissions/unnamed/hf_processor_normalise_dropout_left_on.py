"""Blind round 10 (b10_05, issue 38): embed_image ported from Hugging Face ViTEmbeddings.forward (cat
[CLS], + position_embeddings, `self.dropout(embeddings)`) with ViTImageProcessor's normalisation
(image_mean = image_std = 0.5) done first.

Mistakes:
1. The image is normalised inside embed_image, (image - 0.5) / 0.5. Every input.
2. Dropout is left on (training=True, p = 0.1, inverted scaling): random at each call.

Grader: cls-and-positions' checklist on two checks, no hint on the hidden one; the randomness
is never mentioned. Nothing named.
Now (session 17): cls-and-positions observes the randomness (changes_between_calls: "returns
different values for the same inputs"), as vit-checkpoint does. Dropout left on is random, so no
rewrite of the reference reproduces its values (not nameable by the error model: the observation
is the honest hint), and the normalisation (dtypes.rescaled's `image-minus-half-over-half`, named
alone) cannot show through it: stays in unnamed/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': None}


def embed_image(image, params, training=True, dropout_prob=0.1):
    """ViTImageProcessor normalisation, then ViTEmbeddings.forward."""
    image_mean, image_std = 0.5, 0.5
    pixel_values = (np.asarray(image, dtype=float) - image_mean) / image_std
    embeddings = linear_patch_embed(pixel_values, params["W_e"], params["b_e"], params["P"])
    cls_tokens = params["cls"].reshape(1, -1)
    embeddings = np.concatenate((cls_tokens, embeddings), axis=0)
    embeddings = embeddings + params["pos"]
    if training:
        keep = np.random.rand(*embeddings.shape) >= dropout_prob
        embeddings = embeddings * keep / (1.0 - dropout_prob)
    return embeddings
