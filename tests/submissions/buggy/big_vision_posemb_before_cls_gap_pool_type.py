"""Blind round 48 (b48_09, issue 38): embed_image and vit_forward ported from
google-research/big_vision, big_vision/models/vit.py `_Model.__call__`: "Add posemb before adding
extra token." (`x = x + posemb` on the patch tokens, then the `cls` concat), and `pool_type: str =
"gap"` (the default) with `x = jnp.mean(x, axis=1)`. The port: `params["pos"][1:]` added to the
patch tokens, and the mean over tokens after the final LayerNorm.

Mistakes:
1. `embed_image`: the [CLS] row gets no position: the patches get pos[1:], row 0 is the bare
   cls. Wrong whenever pos[0] != 0.
2. `vit_forward`: global average pooling instead of the [CLS] row: `mean(LN(x), axis=0) @ W_head
   + b_head`. Wrong on every input.

Grader: at blind time (4b7c886d) and now, named: "You added the positions before prepending
[CLS], so the patches got pos[1:] and [CLS] got no position at all. ..." on cls-and-positions;
"You averaged every token. This model's head reads the [CLS] row only: x[0] after the final
LayerNorm." on vit-forward (graded with the grader's embed_image); vit-checkpoint observes both.
Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'embed_positions_before_cls',
          'vit-forward': 'vit_mean_pool_all_tokens'}


def embed_image(image, params):
    """big_vision's _Model.__call__: 'Add posemb before adding extra token.'"""
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])

    # Add posemb before adding extra token.
    x = x + params["pos"][1:]

    cls = params["cls"][np.newaxis, :]
    x = np.concatenate([cls, x], axis=0)
    return x


def vit_forward(image, params):
    """big_vision's _Model.__call__ with its default pool_type 'gap': the mean over tokens."""
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    encoded = layer_norm(x, params["ln_g"], params["ln_b"])

    x = np.mean(encoded, axis=0)   # head_input
    return x @ params["W_head"] + params["b_head"]
