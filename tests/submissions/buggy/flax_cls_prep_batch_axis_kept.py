"""Blind round 44 (b44_05, issue 38): embed_image ported from a Flax CLSPrep module (code-search
file id 49603375258: `jnp.tile(cls_token, (batch_size, 1, 1))`, `jnp.concatenate([cls_tokens, x],
axis=1)`) with Flax AddPositionEmbs's (1, N+1, d) table.

Mistakes:
1. embed_image: keeps the Flax batch axis: returns (1, N + 1, d) instead of (N + 1, d) (values
   right, shape wrong); vit_forward then fails (ValueError unpacking T, d).

Grader: at blind time (0fc72e8) and now, named: "In `embed_image`, the result `x +
params['pos']` comes back with an extra axis of length 1 in front (a batch of one ...)" on
cls-and-positions. why-positions calls the file's embed_image (an observation of it);
vit-checkpoint observes embed_image. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'op:batch_axis_kept:embed_image:result-batch-axis-kept'}


def embed_image(image, params):
    """The token sequence entering the transformer (section 3 steps 3-4)."""

    def cls_prep(x, cls_token):
        batch_size = x.shape[0]
        cls_tokens = np.tile(cls_token, (batch_size, 1, 1))
        x = np.concatenate([cls_tokens, x], axis=1)
        return x

    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])[None]  # (1, N, d)
    x = cls_prep(x, params["cls"].reshape(1, 1, -1))                                 # (1, N + 1, d)
    pos_embedding = np.reshape(params["pos"], (1,) + params["pos"].shape[-2:])
    return x + pos_embedding
