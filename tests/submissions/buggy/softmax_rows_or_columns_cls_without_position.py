"""Blind round 6 (b6_05, issue 38): softmax written thinking of 2-D arrays only (`axis=0` = columns
via a transpose, any other axis = rows), and embed_image that gives the positions to the patch
tokens only (some ports add `pos_embed[:, 1:]` to the patches and forget `pos_embed[:, :1]` on
[CLS]).

Mistakes:
1. softmax: if axis == 0 it transposes, otherwise it normalises over the last axis. Right for 1-D
   and 2-D inputs with any axis, and for any input with axis=-1/0/last; wrong only on batched
   (3-D+) inputs with a middle axis, e.g. axis=1 of (B, T, T).
2. embed_image: adds pos[1:] to the patch tokens and leaves the [CLS] row without pos[0].
   Shows whenever pos[0] != 0.

Grader: embed_image is named (positions added before [CLS]); so is softmax on its hidden check
(any axis but 0 taken as the last); the probability property gives its checklist.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:axis_2d:softmax:axis-0-or-last',
          'cls-and-positions': 'embed_positions_before_cls'}
ALIASES = ('softmax_wrong_axis',)  # the probability property's verdict on the middle axis


def embed_image(image, params):
    """[CLS] + patch tokens with their positions."""
    patches = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    patches = patches + params["pos"][1:]
    return np.vstack([params["cls"], patches])


def softmax(x, axis=-1):
    """Row-wise softmax; axis=0 works on the columns."""
    x = np.asarray(x, dtype=float)
    if axis == 0:
        return softmax(x.T, axis=-1).T
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
