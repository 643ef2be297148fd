"""Blind round 78 (b78_13, issue 38): layer_norm ported from AwikDhar/GPT `GPT.ipynb` (its
LayerNorm cell, `correction=True`).

Mistakes:
1. layer_norm (line 77 of the file as delivered): `ddof=1`, the unbiased variance, where
   LayerNorm uses the biased one: wrong on every input, encoder_block's and vit_forward's too.

Grader: at blind time (ddfccf96) and now, 100/110. Mistake 1 named on layer-norm ("You used the
unbiased variance (ddof=1, torch.var's default). LayerNorm uses the biased one ... ddof=0.").
Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'layer_norm_unbiased'}


def layer_norm(x, gamma, beta, eps=1e-6):
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True, ddof=1)
    out = (x - mean) / np.sqrt(var + eps)
    out = gamma * out + beta
    return out
