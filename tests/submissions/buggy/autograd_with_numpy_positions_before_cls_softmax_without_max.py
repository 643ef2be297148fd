"""Blind round 73 (b73_05, issue 38): embed_image and softmax ported from
windshadow233/autograd-with-numpy `nptorch/nn/functional.py`.

Mistakes:
1. embed_image (line 97 of the file as delivered): `x + params['pos'][1:]` before [CLS] is
   prepended, so the [CLS] row never gets pos[0]. Wrong on every input.
2. softmax (line 102): `np.exp(x)` with no max subtracted: NaN for inputs near 1000; right on
   ordinary inputs.

Grader: at blind time (6245b55a) and now, 96/110. Mistake 1 named on cls-and-positions ("You added
the positions before prepending [CLS], so the patches got pos[1:] and [CLS] got no position");
mistake 2 on stable-softmax ("exp overflowed ... Subtract the maximum along the axis first");
vit-checkpoint observes embed_image. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'cls-and-positions': 'embed_positions_before_cls',
          'stable-softmax': 'softmax_without_max'}


def embed_image(image, params):
    x = linear_patch_embed(image, params['W_e'], params['b_e'], params['P'])
    x = x + params['pos'][1:]
    return np.concatenate([params['cls'][None, :], x], axis=0)


def softmax(x, axis=-1):
    e = np.exp(x)
    return e / e.sum(axis=axis, keepdims=True)
