"""Blind round 41 (b41_09, issue 38): embed_image after a tf.keras ClassToken layer (code-search
file id 48645473014: "The Class Token class concatenates the cls_token with the input_tensor":
tf.broadcast_to, then tf.cast(..., dtype=input_tensor.dtype), tf.concat(axis=1)).

Mistakes:
1. embed_image: the learned [CLS] is cast to the dtype of the image it was given before it joins
   the tokens: right for float images; for an integer (uint8) image [CLS] is cut to integers
   (negative values wrap for uint8).

Grader: at blind time (6092674), only an observation on cls-and-positions' RGB uint8 case:
"Your `embed_image` is right for float images, wrong for a uint8 image ... look for a step that
treats integer pixels differently ... except in 1 of 7 rows (row 0)". Now named there: "the
parameter `params['cls']` is cast to `image`'s dtype before it joins the others in
`np.vstack([params['cls'], x])` (as ... Keras' `tf.cast(..., inputs.dtype)` does)". In buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'op:parameter_cast:embed_image:cls-cast-to-image-dtype'}


def embed_image(image, params):
    """The token sequence (N + 1, d) entering the transformer (section 3 steps 3-4).

    ClassToken.call on a batch of one: broadcast the learned cls to (batch, 1, d), cast it to
    the input's dtype and concatenate it in front; then add the positions.
    """
    input_tensor = np.asarray(image)
    tokens = linear_patch_embed(input_tensor, params["W_e"], params["b_e"], params["P"])[None]  # (1, N, d)

    batch_size = tokens.shape[0]
    embedding_dimension = params["cls"].shape[-1]
    cls_token_tensor = np.reshape(params["cls"], (1, 1, embedding_dimension))
    cls_token_broadcasted = np.broadcast_to(cls_token_tensor, (batch_size, 1, embedding_dimension))
    cls_token = cls_token_broadcasted.astype(input_tensor.dtype)
    output_tensor = np.concatenate([cls_token, tokens], axis=1)

    return output_tensor[0] + params["pos"]
