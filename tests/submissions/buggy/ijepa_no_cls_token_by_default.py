"""Blind round 83 (b83_12, issue 38): num_tokens ported from simonegiacomelli/ijepa
`load_22h14.py` (I-JEPA's encoder has no [CLS] token).

Mistakes:
1. num_tokens (line 12 of the file as delivered): `cls_token=False` by default, so 224 / 16
   gives 196 tokens where the API's default counts [CLS] (197); an explicit `cls_token` is
   right.

Grader: at blind time (2774dae9) and now, 104/110. Mistake 1 named on token-count ("In
`num_tokens`, `cls_token` defaults to False ... the student API's default is True");
attention-cost loses 2 points on the same mistake, as it runs the student's num_tokens. Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'token-count': 'op:default_flipped:num_tokens:cls_token-defaults-False'}


def num_tokens(H, W, P, cls_token=False):
    N = num_patches(H, W, P)
    return N + 1 if cls_token else N
