"""Blind round 76 (b76_05, issue 38): num_tokens and softmax ported from
SampsonML/AstroVisionTransformer `model/transformer.py` and `model/attention.py`.

Mistakes:
1. num_tokens (line 22 of the file as delivered): `return 1 + num_patches(...)` ignores
   `cls_token` (the source hard-codes `1+num_patches`). Wrong for cls_token=False.
2. softmax (line 102): the default `axis=1`. Batched 3-D input is normalised over the token
   axis, a 1-D input raises AxisError; a call that passes `axis=-1`, as the attention does, is
   right.

Grader: at blind time (fe8b70f1) and now, 101/110. Mistake 1 named on token-count ("With
cls_token=False there is no [CLS] row: the sequence is just the N patches."), mistake 2 on
stable-softmax ("In `softmax`, `axis` defaults to 1 (`axis=1` in the signature) ..."). Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'token-count': 'cls_always',
          'stable-softmax': 'op:default_flipped:softmax:axis-defaults-1'}


def num_tokens(H, W, P, cls_token=True):
    # CLS token + one token per patch (pos_embedding has 1+num_patches rows)
    return 1 + num_patches(H, W, P)


def softmax(x, axis=1):
    x = np.asarray(x, dtype=float)
    x_max = np.max(x, axis=axis, keepdims=True)
    unnormalized = np.exp(x - x_max)
    return unnormalized / np.sum(unnormalized, axis=axis, keepdims=True)
