"""Blind round 68 (b68_12, issue 38): embed_image and vit_forward ported from
bataeves/paper-replication `papers/vit/blocks/patch_position.py` (PatchPositionBlock.forward,
which makes its class token and position embedding with `nn.Parameter(torch.rand(...))` inside
forward) and `models/vit_base.py` (the classifier: LayerNorm then Linear on row 0): vit_forward
right.

Mistakes:
22. embed_image (lines 118 and 124 of the file as delivered): the class token and the position
    embedding drawn fresh with `np.random.rand` on every call: `params["cls"]` and
    `params["pos"]` ignored, the output random. Wrong on any input, and through vit_forward.

Grader: at blind time (766069c5) and now, 98/110. Mistake 22 only observed, on cls-and-positions'
three failed checks ("Your `embed_image` returns different values for the same inputs when it is
called twice: something in it changes from call to call (random numbers ...)", true and near the
cause, but it does not say that `params["cls"]` and `params["pos"]` are never read), and the same
of `vit_forward` on vit-checkpoint. Not every mistake named, so in unnamed/; EXPECT holds what
must hold today: the points lost, no cause named.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': None}
CORRECT = ('vit_forward',)


def embed_image(image, params):
    """The token sequence (N + 1, d) entering the transformer (section 3 steps 3-4).

    linear_patch_embed with params["P"], ["W_e"], ["b_e"]; the learned [CLS] params["cls"] (d,)
    prepended as row 0; then the positions params["pos"] (N + 1, d) added to every row.
    """
    patch_embedding = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    number_of_patches, embedding_dimension = patch_embedding.shape

    class_token = np.random.rand(1, embedding_dimension)

    # Prepend class token embedding to patch embedding
    patch_embedding_class_token = np.concatenate((class_token, patch_embedding), axis=0)

    # Create position embedding
    position_embedding = np.random.rand(number_of_patches + 1, embedding_dimension)

    # Add position embedding to patch embedding with class token
    patch_and_position_embedding = patch_embedding_class_token + position_embedding
    return patch_and_position_embedding


def vit_forward(image, params):
    """Logits (num_classes,) of one image (section 3 step 6).

    embed_image, every block of params["blocks"] with params["heads"], the final layer_norm
    (ln_g, ln_b), then the [CLS] row (row 0) through W_head (d, num_classes) and b_head.
    """
    # Create patch+position embedding
    x = embed_image(image, params)

    # Pass patch, position and class embedding through transformer encoder layers (equations 2 & 3)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])

    # Put 0 index logit through classifier (equation 4): LayerNorm then Linear
    x = layer_norm(x[0], params["ln_g"], params["ln_b"])
    return x @ params["W_head"] + params["b_head"]
