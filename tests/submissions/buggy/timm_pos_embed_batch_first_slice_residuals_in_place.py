"""Blind round 18 (b18_09, issue 38): embed_image and encoder_block ported from timm's
VisionTransformer (_pos_embed, Block), the batch axis dropped.

Mistakes:
1. embed_image adds `pos_embed[:x.shape[1]]`, timm's batch-first slice: unbatched, shape[1] is the
   width d, so when d < N + 1 only d rows of positions are kept and the sum fails to broadcast
   (ValueError); right when d >= N + 1.
2. encoder_block's residuals are `x += ...`: the caller's array is overwritten (the returned values
   are right).
The student's `mlp` helper is nested in encoder_block here: the builder replaces only the
solution's own definitions.

Grader: at blind time and now, the in-place residual is told exactly but as an observation with no
mistake name ("Change no array `encoder_block` is given in place: compute into a new one"; the
measurement counted it as named); the slice gets cls-and-positions' checklist ("The sequence is
[CLS] (row 0) followed by the N patch tokens, then + pos") and a hidden check with no hint. Not
every mistake named.
Since session 13 the in-place write is named: changes_input_in_place (the worker sees
the argument change; the same hint, now tagged a named mistake).
Since session 16 the slice is named too (layouts.table_cut_by_axis_1: "`params['pos']` is cut
to `params['pos'][:x.shape[1]]`", numpy's broadcast error reproduced): every mistake named.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'op:table_cut_by_axis_1:embed_image:pos-cut-to-x.shape[1]',
          'encoder-block': 'changes_input_in_place'}


def embed_image(image, params):
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    cls_token = params["cls"][None, :]
    x = np.concatenate([cls_token, x], axis=0)
    pos_embed = params["pos"]
    x = x + pos_embed[:x.shape[1]]
    return x


def encoder_block(x, p, heads):
    """timm Block; its Mlp (top-level `mlp` in the student's file) nested here."""
    def mlp(x, p):
        x = x @ p["W1"] + p["b1"]
        x = gelu(x)
        return x @ p["W2"] + p["b2"]

    x += self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    x += mlp(layer_norm(x, p["ln2_g"], p["ln2_b"]), p)
    return x
