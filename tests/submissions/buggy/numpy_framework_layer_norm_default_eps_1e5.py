"""Blind round 37 (b37_12, issue 38): layer_norm ported from a numpy deep-learning framework's
LayerNorm(Module) (code-search file id 10367833199: the batch-norm trick on `x.T`, mean and var
over axis 0, then `.T` back, with the framework's default eps=1e-5).

Mistakes:
1. The default eps is 1e-5 (the source's), not the lecture's 1e-6. The `.T` trick itself is right
   for 1-D, 2-D and 3-D input (the last axis becomes the first and back).

Grader: at blind time and now, named: "In `layer_norm`, eps is 1e-05; the lecture's is 1e-06." on
the "eps inside the square root" check and the hidden check; the "small examples" check (a
float32 case, 1.4e-4 off in one row) has the true `[observation]` "returns the expected values
except in 1 of 4 rows"; encoder-block passes (inside its tolerance). Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:constant:layer_norm:eps=1e-05'}


def layer_norm(x, gamma, beta, eps=1e-5):
    x = np.asarray(x, dtype=float).T
    sample_mean = np.mean(x, axis=0)
    sample_var = np.var(x, axis=0)
    v = np.sqrt(sample_var + eps)
    x_hat = (x - sample_mean) / v
    x_hat = x_hat.T
    out = gamma * x_hat + beta
    return out
