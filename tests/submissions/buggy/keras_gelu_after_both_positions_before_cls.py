"""Blind round 3 (b3_03, issue 38), a port of the Keras "Image classification with Vision
Transformer" example with two mistakes: encoder_block's MLP applies GELU after both Dense
layers (the example's mlp() loop), gelu(gelu(h @ W1 + b1) @ W2 + b2); embed_image (the example's
PatchEncoder) adds rows 0..N-1 of pos to the patch tokens before [CLS] is prepended, so every
patch gets the position of the row before its own and [CLS] gets none.
(The submission's module-level helpers are nested in the function that uses them
here: a fixture replaces only the solution's names.)
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': "op:concatenation:embed_image:params['pos']-first-rows-before-vstack",
          'encoder-block': 'op:activation_added:encoder_block/mlp:activation-after-linear.2'}


def embed_image(image, params):
    """Keras PatchEncoder (projection + position_embedding(positions)), then the [CLS] row."""
    patches = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    num_patches = patches.shape[0]
    positions = np.arange(num_patches)
    encoded = patches + params["pos"][positions]
    return np.concatenate([params["cls"][None, :], encoded], axis=0)


def encoder_block(x, p, heads):
    """Keras example transformer block: LN, MHA, skip, LN, MLP, skip."""
    def _dense(x, W, b, activation=None):
        y = x @ W + b
        return activation(y) if activation is not None else y

    def _mlp(x, layers):
        """keras example: for units in hidden_units: x = Dense(units, activation=gelu)(x)."""
        for W, b in layers:
            x = _dense(x, W, b, activation=gelu)
        return x

    x1 = layer_norm(x, p["ln1_g"], p["ln1_b"])
    attention_output = self_attention(x1, p, heads)
    x2 = attention_output + x
    x3 = layer_norm(x2, p["ln2_g"], p["ln2_b"])
    x3 = _mlp(x3, [(p["W1"], p["b1"]), (p["W2"], p["b2"])])
    return x3 + x2
