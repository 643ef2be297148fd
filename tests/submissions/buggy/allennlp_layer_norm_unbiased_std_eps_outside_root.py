"""Blind round 51 (b51_06, issue 38): layer_norm ported from AllenNLP,
allennlp/modules/layer_norm.py (documented as `output = (gamma * (tensor - mean) / (std + eps)) +
beta`, with torch's `tensor.std(-1)`, unbiased), as `tensor.std(-1, ddof=1)`.

Mistakes:
1. The unbiased std (`ddof=1`) instead of the biased variance: outputs scaled by sqrt((d-1)/d)
   on every input (1-D, 2-D, batched 3-D).
2. eps outside the square root, `/ (std + eps)` instead of `/ sqrt(var + eps)`: ~1e-6 on
   ordinary inputs, large on values with a tiny spread (1000 + 1e-3 * noise).
encoder_block and vit_forward inherit both.

Grader: at blind time (b53db91d) and now, both named on layer-norm: "You used the unbiased variance
(ddof=1, torch.var's default). LayerNorm uses the biased one, ..." and "2 mistakes at once: (1) You
used the unbiased variance (ddof=1, torch.var's default). ... (2) eps goes inside the square root:
(x - mean) / sqrt(var + eps), not / (std + eps). ..." (on the hidden check "2 mistakes at once: (1)
In `layer_norm`, `eps` is added outside the square root, `sqrt(var) + eps`, ... (2) In
`layer_norm`, the variance is the unbiased one ..."); vit-checkpoint observes layer_norm. Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'layer_norm_unbiased+layer_norm_eps_outside'}


def layer_norm(x, gamma, beta, eps=1e-6):
    tensor = np.asarray(x, dtype=float)
    mean = tensor.mean(-1, keepdims=True)
    std = tensor.std(-1, ddof=1, keepdims=True)   # torch's tensor.std(-1)
    return gamma * (tensor - mean) / (std + eps) + beta
