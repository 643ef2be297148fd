"""Blind round 39 (b39_05, issue 38): layer_norm adapted from a numpy layernorm_forward/backward
module (code-search file id 28058751263: layernorm_forward(x, gamma, beta, eps), written for
(N, D) input).

Mistakes:
1. layer_norm: mean and variance over `axis=1`: right on 2-D input, over the TOKENS axis on
   batched (B, T, d) input, AxisError on 1-D input (the API: over the last axis, any leading
   shape). Shows only on non-2-D input.

Grader: at blind time (b589706) and now, named on the hidden check only ("One slip, made at 2
places": `np.mean(x, keepdims=True, axis=1)` and `np.var(x, keepdims=True, axis=1)` in place of
axis -1); no visible check has non-2-D input, so the visible table is full. Every mistake named,
so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:axis:layer_norm:mean.axis=1+op:axis:layer_norm:var.axis=1'}


def layer_norm(x, gamma, beta, eps=1e-6):
    """LayerNorm forward pass: normalizes across the feature dimension D for each sample (row)."""
    x = np.asarray(x, dtype=float)
    d = x.shape[-1]
    if d == 0:
        raise ValueError("x must have D>0 features")
    gamma_2d = gamma.reshape(1, d) if gamma.ndim == 1 else gamma
    beta_2d = beta.reshape(1, d) if beta.ndim == 1 else beta

    mu = np.mean(x, axis=1, keepdims=True)      # (N,1)
    var = np.var(x, axis=1, keepdims=True)      # (N,1)
    inv_std = 1.0 / np.sqrt(var + eps)          # (N,1)
    x_hat = (x - mu) * inv_std                  # (N,D)
    y = x_hat * gamma_2d + beta_2d
    return y
