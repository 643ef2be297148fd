"""Blind round 40 (b40_10, issue 38): layer_norm adapted from the numpy BatchNorm of
onozeam/understand_normalization (main.py: BatchNorm.forward with mu = np.average(x, axis=0),
var = np.var(x, axis=0), self.epsilon = 0.00001), taking the statistics per row instead.

Mistakes:
1. layer_norm: mean and variance taken without keepdims and re-expanded with `[:, None]`: right
   for 1-D and 2-D input only; a batch (B, T, d) fails to broadcast ((B, T, d) against
   (B, 1, T): ValueError).
2. layer_norm: eps fixed at 1e-5 (the source's epsilon), the eps argument ignored (default
   1e-6).

Grader: at blind time (b589706), mistake 2 named on the eps check ("`eps` is fixed at 1e-05 (a
library's usual default) whatever is given"); mistake 1 only observed, on the hidden check ("your
code raised ValueError" and the checklist "for x (T, d) and a batch (B, T, d) alike"): no visible
check has 3-D input. Now the hidden check names both: "2 mistakes at once: (1) One slip, at one
or more of these places (the cases cannot tell which): (a) `np.mean(x, axis=-1, keepdims=True)`
is written with `[:, None]` ... (b) `np.var(...)` ... (2) `eps` is fixed at 1e-05" (a batch
raises at the mean's line, so the cases cannot tell whether the variance is re-expanded too:
error_model._either with a shared part, slips.unplaced). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:kept_by_index:layer_norm:mean.keepdims-as-index'
                        '+op:kept_by_index:layer_norm:var.keepdims-as-index'
                        '+op:default:layer_norm:eps-as-1e-05'}


def layer_norm(x, gamma, beta, eps=1e-6):
    """(x - mean) / sqrt(var + eps) * gamma + beta over the last axis."""
    epsilon = 0.00001
    mu = np.average(x, axis=-1)
    var = np.var(x, axis=-1)
    if np.ndim(x) == 1:
        normlized_x = (x - mu) / np.sqrt(var + epsilon)
    else:
        normlized_x = (x - mu[:, None]) / np.sqrt(var[:, None] + epsilon)
    out = normlized_x * gamma + beta
    return out
