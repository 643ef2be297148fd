"""Blind round 52 (b52_03, issue 38): layer_norm ported from the "Level 01" numpy encoder block
(`layer_norm(x, eps=1e-5)`), with gamma and beta added; one concept answer changed by hand.

Mistakes:
1. layer_norm keeps the source's default `eps=1e-5`, where the API's is 1e-6. Shows on
   small-variance rows (std about 1e-3): the output is visibly scaled down. encoder_block and
   vit_forward use the default, so they differ too.
2. `ANSWERS["causal_mask"] = "speed"`. The right option is "bidirectional".

Grader: at blind time (db53909c) and now, both named: M1 on layer-norm ("In `layer_norm`, eps is
1e-05; the lecture's is 1e-06."), M2 on no-causal-mask ("A mask saves no compute: the T x T scores
are computed either way, then masked. ..."). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:constant:layer_norm:eps=1e-05',
          'no-causal-mask': 'causal_mask:speed'}


def layer_norm(x, gamma, beta, eps=1e-5):
    """Layer normalization over the last axis, scaled by gamma and shifted by beta."""
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


ANSWERS["causal_mask"] = "speed"
