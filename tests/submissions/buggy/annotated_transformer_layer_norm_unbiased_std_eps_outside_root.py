"""Blind round 49 (b49_06, issue 38): layer_norm ported from songyingxin/TextClassification,
Transformer/LayerNorm.py (the Annotated Transformer's `std = x.std(-1, keepdim=True)`, `a_2 * (x
- mean) / (std + eps) + b_2`); torch's `std` is unbiased, ported as `x.std(-1, ddof=1)`.

Mistakes:
1. The unbiased std (`ddof=1`): the output is scaled by sqrt((d-1)/d) against the solution.
2. eps is added to the std, outside the square root: `(x - mean) / (std + eps)`, where the API
   wants `/ sqrt(var + eps)`.

Grader: at blind time (7e618553) and now, both named on layer-norm: "You used the unbiased variance
(ddof=1, torch.var's default). ..." and "2 mistakes at once: (1) You used the unbiased variance
(ddof=1, torch.var's default). ... (2) eps goes inside the square root: (x - mean) / sqrt(var +
eps), not / (std + eps). ..." (and on the hidden check "2 mistakes at once: (1) In `layer_norm`,
`eps` is added outside the square root, ... (2) In `layer_norm`, the variance is the unbiased
one ..."); vit-checkpoint observes layer_norm. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'layer_norm_unbiased+layer_norm_eps_outside'}


def layer_norm(x, gamma, beta, eps=1e-6):
    mean = x.mean(-1, keepdims=True)
    std = x.std(-1, ddof=1, keepdims=True)
    return gamma * (x - mean) / (std + eps) + beta
