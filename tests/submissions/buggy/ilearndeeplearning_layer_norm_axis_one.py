"""Blind round 60 (b60_14, issue 38): layer_norm after SkalskiP/ILearnDeepLearning.py
(`01_mysteries_of_neural_networks/06_numpy_convolutional_neural_net`: the repository's
`(n, features)` convention, statistics over axis 1).

Mistakes:
21. layer_norm (lines 107-108 of the file as delivered) takes its mean and variance over axis 1,
    not the last axis. Wrong only on batched input of 3 or more dimensions ((2, 3, d), say);
    2-D (T, d) is right, so the encoder is fine.

Grader: at blind time (528b2ec3) and now, 108/110, named on layer-norm's random check ("One slip,
made at 2 places: (1) In `layer_norm`, your values are the model solution's with `np.mean(x,
keepdims=True, axis=1)` in place of `np.mean(x, axis=-1, keepdims=True)` ... (2) ... `np.var`").
Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:axis:layer_norm:mean.axis=1+op:axis:layer_norm:var.axis=1'}


def layer_norm(x, gamma, beta, eps=1e-6):
    mean = x.mean(axis=1, keepdims=True)
    var = x.var(axis=1, keepdims=True)
    return gamma * (x - mean) / np.sqrt(var + eps) + beta
