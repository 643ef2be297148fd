"""Blind round 39 (b39_04, issue 38): layer_norm ported from vebg25/LLM-from-scratch
(Transformer_Architecture_chapter_3/LayerNormalization.py: class LayerNorm with scale, shift and
self.eps = 1e-5).

Mistakes (both in layer_norm):
1. The variance is torch's `x.var(dim=-1)` default, the unbiased one (ddof=1); the lecture's is
   the biased one (ddof=0).
2. eps is hard-wired at 1e-5 (`self.eps = 1e-5`): the eps argument is ignored.

Grader: at blind time (b589706) and now, named: "the variance is the unbiased one (ddof=1,
torch.var's default)" alone on the small examples, and with "`eps` is fixed at 1e-05 (a
library's usual default) whatever is given" in "2 mistakes at once" on the eps check and the
hidden one; vit-checkpoint observes the broken layer_norm. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:ddof:layer_norm:var.ddof=1+op:default:layer_norm:eps-as-1e-05'}


def layer_norm(x, gamma, beta, eps=1e-6):
    """LayerNorm over the last axis: (..., d), (d,), (d,) -> (..., d)."""
    scale, shift = gamma, beta
    layer_eps = 1e-5                                   # self.eps = 1e-5
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True, ddof=1)        # same as torch's x.var(dim=-1, keepdim=True)
    norm_x = (x - mean) / np.sqrt(var + layer_eps)
    return (norm_x * scale) + shift
