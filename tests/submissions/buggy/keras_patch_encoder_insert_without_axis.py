"""Blind round 11 (b11_06, issue 38): embed_image ported from the Keras ViT example's PatchEncoder.

Source: https://keras.io/examples/vision/image_classification_with_vision_transformer/
(PatchEncoder: encoded = self.projection(patch) + self.position_embedding(positions)); the
[CLS] row added with np.insert, as numpy answers for "insert a row at the top of an array".
Mistakes:
 1. np.insert(tokens, 0, cls) without axis=0: numpy flattens the (N, d) array and inserts
    d numbers, giving a 1-D array of (N+1)*d values; adding pos (N+1, d) then fails with a
    broadcast ValueError (every input).

Grader: cls-and-positions' checklist ("The sequence is [CLS] (row 0) followed by the N patch
tokens, then + pos: shape (N + 1, d).") with the broadcast ValueError; np.insert's flattening was
not named. Since session 16 it is (layouts.insert_flattened: "`np.vstack([params['cls'], x])`
is written with no `axis`, as `np.insert(x, 0, params['cls'])`", the broadcast error's message
reproduced), so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'op:insert_flattened:embed_image:insert-without-axis'}


def embed_image(image, params):
    """PatchEncoder: projection(patch) + position_embedding, with a [CLS] row in front."""
    patches = patchify(image, params["P"])
    encoded = patches @ params["W_e"] + params["b_e"]        # layers.Dense(projection_dim)
    encoded = np.insert(encoded, 0, params["cls"])            # [CLS] as row 0
    return encoded + params["pos"]                            # position_embedding(positions)
