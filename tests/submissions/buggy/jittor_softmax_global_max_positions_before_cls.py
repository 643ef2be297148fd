"""Blind round 21 (b21_03, issue 38): softmax and embed_image ported from Jittor's vision
transformer (jittor models/vit: modules with `execute`, `jt.Var`'s `x.max()`, PatchEmbed).

Mistakes:
1. softmax shifts by the global `x.max()` (a jittor Var's max over every element) instead of the
   max along `axis`: the same values mathematically, but a slice lying ~750 below the global max
   underflows to 0/0 = nan (rows [1000, 999] and [0, 1]).
2. embed_image adds the positions to the patch tokens only (`x + pos[1:]`) and prepends [CLS]
   afterwards without its position row 0.

Grader: at blind time and now, both named: `np.max(x, keepdims=True)` in place of
`np.max(x, axis=axis, keepdims=True)`, and the positions added before [CLS] is prepended. At
blind time vit-checkpoint's observation said the run uses the student's softmax, which this file's
attention (its own inline softmax) never calls: a wrong hint. Now it says 'where this run uses
them (the lecture's pipeline does; your code may not)'. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:axis:softmax:max.axis=None',
          'cls-and-positions': 'embed_positions_before_cls'}


def softmax(x, axis=-1):
    x = np.asarray(x)
    x = np.exp(x - x.max())
    return x / x.sum(axis=axis, keepdims=True)


def embed_image(image, params):
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    x = x + params["pos"][1:]
    cls_token = params["cls"][None, :]
    return np.concatenate((cls_token, x), axis=0)
