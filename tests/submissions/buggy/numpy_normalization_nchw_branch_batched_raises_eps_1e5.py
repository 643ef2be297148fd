"""Blind round 47 (b47_12, issue 38): layer_norm ported from a numpy normalisation exercise
(code-search file id 20416891154: `normalization(x)` for x [N,C,H,W] or [N,m], BatchNorm-style
statistics over axes (0, 2, 3) for 4-D input, over axis 1 for 2-D input; `eps=1e-5`).

Mistakes:
1. Only 2-D input works: the `x.ndim > 2` branch takes statistics over axes (0, 2, 3), so a batched
   (B, T, d) input raises AxisError (axis 3 out of bounds), and a 1-D (d,) input raises too
   (`axis=1`).
2. The default eps is 1e-5 (the source's) instead of 1e-6.

Grader: at blind time (a4c32119), the eps was named on "eps inside the square root" ("In
`layer_norm`, eps is 1e-05; the lecture's is 1e-06."); the batched raise showed only on the hidden
check ("your code raised AxisError"), with the `[checklist]` "Each token (along the last axis, for
x (T, d) and a batch (B, T, d) alike) ...". Now the hidden check names both, "2 mistakes at once":
(1) an `x` that is not a 2-D (T, d) matrix (a single (d,) token, a batched (B, T, d) input) is
refused (op:guarded, weighed on probes of one token, a sequence and a batch), (2) eps 1e-05. The
eps check still names the eps alone. encoder-block, vit-forward and vit-checkpoint pass. Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:guarded:layer_norm:two-axes-only+op:constant:layer_norm:eps=1e-05'}


def layer_norm(x, gamma, beta, eps=1e-5):
    """normalization(x), then the learned scale and shift; x is [N,C,H,W] or [N,m]."""
    if x.ndim > 2:
        mean = np.mean(x, axis=(0, 2, 3))[:, np.newaxis, np.newaxis]
        var = np.var(x, axis=(0, 2, 3))[:, np.newaxis, np.newaxis]
        x = (x - mean) / np.sqrt(var + eps)
    else:
        mean = np.mean(x, axis=1)[:, np.newaxis]
        var = np.var(x, axis=1)[:, np.newaxis] + eps
        x = (x - mean) / np.sqrt(var)

    return x * gamma + beta
