"""Blind round 63 (b63_12, issue 38): num_tokens ported from karpathy/convnetjs
`src/convnet_layers_dotproducts.js` (FullyConnLayer's `num_inputs`, the count of inputs only).

Mistakes:
18. num_tokens (lines 16-17 of the file as delivered): ignores `cls_token` and returns the patch
    count only. Wrong with cls_token=True (the default).

Grader: at blind time (edc81c9a) and now, 104/110, named. Mistake 18 on token-count's [CLS] and
random checks ("[CLS] is a token too: with cls_token=True the transformer sees N + 1 rows");
attention-cost, which runs the student's num_tokens, observes it (-2). Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'token-count': 'cls_forgotten'}


def num_tokens(H, W, P, cls_token=True):
    num_inputs = num_patches(H, W, P)
    return num_inputs

