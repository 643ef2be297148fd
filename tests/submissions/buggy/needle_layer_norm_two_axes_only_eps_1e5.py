"""Blind round 33 (b33_10, issue 38): layer_norm ported from the "needle" LayerNorm1d of CMU
10-414/714 Deep Learning Systems homework 2, as solved in purepisces/DeepLearningSystem
(hw2/hw2-solution/python/needle/nn/nn_basic.py), numpy in place of needle's ops.

Mistakes:
1. `B, D = x.shape` and reshape((B, 1)): only a 2-D (batch, dim) input works; a batched
   (B, T, d) input, or a single token (d,), raises ValueError (unpack) instead of normalising
   over the last axis.
2. eps defaults to needle's 1e-5, not the API's 1e-6 (every caller that passes no eps).

Grader: at blind time (c4f83ef) and now, named: "eps is 1e-05; the lecture's is 1e-06" on the
eps check, and "2 mistakes at once: ... the shape of `x` is read as two sizes, `T, d = x.shape`"
on the hidden check; the small-examples check observes "1 of 4 rows" (row 3, the eps default
again). encoder-block, vit-forward and vit-checkpoint pass within their tolerances. Every mistake
named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:constant:layer_norm:eps=1e-05+op:two_axes_unpacked:layer_norm:x-shape-as-T-d'}


def layer_norm(x, gamma, beta, eps=1e-5):
    """LayerNorm1d.forward: x is (batch, dim); weight = gamma, bias = beta."""
    x = np.asarray(x, dtype=float)
    B, D = x.shape
    mean_x = np.sum(x, axis=1)
    mean_x = mean_x / D
    mean_x = np.reshape(mean_x, (B, 1))
    mean_x = np.broadcast_to(mean_x, (B, D))
    tmp = x - mean_x

    var_x = tmp * tmp
    var_x = np.sum(var_x, axis=1)
    var_x = var_x / D
    var_x = np.reshape(var_x, (B, 1))
    var_x = np.broadcast_to(var_x, (B, D))
    bott = var_x + eps
    bott = np.power(bott, 0.5)
    norm_X = tmp / bott

    tmp_weight = np.broadcast_to(np.reshape(gamma, (1, D)), norm_X.shape)
    tmp_bias = np.broadcast_to(np.reshape(beta, (1, D)), norm_X.shape)
    out = tmp_weight * norm_X + tmp_bias
    return out
