"""Blind round 54 (b54_03, issue 38): layer_norm ported from a numpy Transformer's
`LayerNormalization(layer.StatefulLayer)` with `epsilon: float = 1e-3` (Keras's default; find_string
id 20551321688).

Mistakes:
1. Default `eps=1e-3` instead of 1e-6. Every call without `eps` differs (unit-variance rows: up to
   1.1e-3 absolute; tiny-variance rows, e.g. 1 + 1e-3 noise: 1.50 -> 0.079). With an explicit `eps`
   it matches. encoder_block and vit_forward (which call it without eps) differ too.

Grader: at blind time (5f4a3d53) and now, named on layer-norm's three failing checks ("In
`layer_norm`, eps is 0.001; the lecture's is 1e-06."); encoder-block and vit-forward keep their
points (graded with the grader's layer_norm standing in). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:constant:layer_norm:eps=0.001'}


def layer_norm(x, gamma, beta, eps=1e-3):
    """Layer normalization over the last axis, as LayerNormalization.forward."""
    _mean = np.mean(x, axis=-1, keepdims=True)
    _var = np.var(x, axis=-1, keepdims=True)
    _y = (x - _mean) / np.sqrt(_var + eps)
    return gamma * _y + beta
