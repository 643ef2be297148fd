"""Blind round 69 (b69_05, issue 38): layer_norm ported from DylanTombs/TradingTransformer
`Transformer/LayerNorm.py`.

Mistakes:
1. layer_norm (line 156 of the file as delivered): `(x - mean) / (std + eps)`, eps outside
   the square root. Wrong on rows of small variance or with a large eps (relative error about
   1e-6 on unit-variance rows).

Grader: at blind time (cb37e6da) and now, 107/110, named on layer-norm ("eps goes inside the
square root: (x - mean) / sqrt(var + eps), not / (std + eps)"). Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'layer_norm_eps_outside'}


def layer_norm(x, gamma, beta, eps=1e-6):
    """LayerNorm.forward from DylanTombs/TradingTransformer (numpy)."""
    mean = x.mean(axis=-1, keepdims=True)
    std = x.std(axis=-1, keepdims=True)
    return gamma * (x - mean) / (std + eps) + beta
