"""Blind round 21 (b21_10, issue 38): layer_norm and embed_image ported from MindSpore (mindcv:
`ops.ReduceMean(keep_dims=True)`, Parameters updated in place with `ops.assign_add`). The
student's top-level `ReduceMean` (a class) and `assign_add` are nested in layer_norm and
embed_image here: the builder replaces only the solution's own definitions.

Mistakes:
1. layer_norm reduces the variance without keep_dims (`ReduceMean()(sq, -1)`), so it has shape
   (...,) instead of (..., 1): right for one token (d,) or one row (1, d), a wrong broadcast
   (T == d) or an error (T != d) for a (T, d) or batched input.
2. embed_image accumulates [CLS] and the patch tokens into `params["pos"]` in place (assign_add
   on the position Parameter) and returns that array: the first call's value is right, but the
   caller's pos is changed and repeated calls drift.

Grader: at blind time and now, the variance named (`np.var(...)` computed without keepdims=True;
on the small examples as one slip the cases cannot place, at np.mean or np.var); the in-place
write was only observed until session 13 ("the value is right, but `embed_image` changed `params['pos']` in place";
"Change no array `embed_image` is given in place"), which states the mechanism but with no
misconception name; vit-checkpoint observes the broken functions.
Since session 13 the in-place write is named (changes_input_in_place: the worker sees the
argument change; the same hint, now a named mistake): every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:keepdims:layer_norm:var.keepdims',
          'cls-and-positions': 'changes_input_in_place'}


def layer_norm(x, gamma, beta, eps=1e-6):
    class ReduceMean:
        def __init__(self, keep_dims=False):
            self.keep_dims = keep_dims

        def __call__(self, x, axis):
            return np.mean(x, axis=axis, keepdims=self.keep_dims)

    x = np.asarray(x)
    mean = ReduceMean(keep_dims=True)(x, -1)
    diff = x - mean
    variance = ReduceMean()(diff * diff, -1)
    return diff / np.sqrt(variance + eps) * gamma + beta


def embed_image(image, params):
    def assign_add(variable, value):
        variable += value
        return variable

    tokens = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    pos = params["pos"]
    assign_add(pos[0:1], params["cls"][None, :])
    assign_add(pos[1:], tokens)
    return pos
