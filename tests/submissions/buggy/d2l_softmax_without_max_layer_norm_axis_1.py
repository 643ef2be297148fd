"""Blind round 9 (b9_08, issue 38): a submission in the style of d2l.ai ("Dive into Deep Learning").

Mistakes:
1. softmax: d2l's from-scratch softmax, `X_exp = exp(X); X_exp / X_exp.sum(...)`, without
   subtracting the max (d2l says it takes no precaution against overflow). Shows only for
   values far from zero (overflow near 1000 gives inf/inf = NaN).
   Sources: d2l-ai/d2l-en chapter_linear-classification/softmax-regression-scratch
   (`def softmax(X): X_exp = torch.exp(X); partition = X_exp.sum(1, keepdims=True)`);
   https://stackoverflow.com/questions/61567597 (overflow example with 1000).
2. layer_norm: statistics over axis=1, correct for one (T, d) sequence but not for the
   (..., d) shapes the API allows: on a (B, T, d) batch it normalises over the tokens; a
   single 1-D token raises AxisError. Shows only on inputs that are not 2-D.
   Sources: GokuMohandas/fast-weights issue #9 (layer norm moments over the wrong axis);
   OpenNMT/OpenNMT-tf PR #6 "Moments should be computed along the last axis";
   d2l batch_norm's `X.mean(dim=0)` / `dim=(0, 2, 3)` per-shape axes.

Grader: both named: softmax_without_max ("exp overflowed") and op:axis, one slip at 2 places
("`np.mean(x, axis=-1, keepdims=True)` runs over axis 1 instead of axis -1", the var too;
the hidden check only).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'softmax_without_max',
          'layer-norm': 'op:axis:layer_norm:mean.axis=1+op:axis:layer_norm:var.axis=1'}


def softmax(x, axis=-1):
    """exp(x) normalised to sum to 1 along `axis`."""
    X_exp = np.exp(x)
    partition = X_exp.sum(axis=axis, keepdims=True)
    return X_exp / partition  # The broadcasting mechanism is applied here


def layer_norm(x, gamma, beta, eps=1e-6):
    """Layer normalisation of the tokens of a (T, d) sequence."""
    mean = x.mean(axis=1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=1, keepdims=True)
    X_hat = (x - mean) / np.sqrt(var + eps)
    return gamma * X_hat + beta
