"""Blind round 10 (b10_06, issue 38): softmax from jaymody/picoGPT gpt2.py (`np.exp(x - np.max(x,
axis=-1, keepdims=True))`) with an `axis` added to the sum only; layer_norm as
scipy.stats.zscore / sklearn StandardScaler, (x - mean) / std.

Mistakes:
1. softmax: the max is still taken along the last axis. Right for axis=-1 (or 1-D x), wrong for
   axis=0 on 2-D inputs.
2. layer_norm: no eps at all (the argument is ignored). Wrong in proportion to eps / var.

Grader: both named (op:axis "np.max(...) runs over axis -1 instead of the axis `axis`";
op:term "eps `eps` is left out of `var + eps`").
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:axis:softmax:max.axis=-1',
          'layer-norm': 'op:term:layer_norm:drop-eps'}


def softmax(x, axis=-1):
    """picoGPT's stable softmax, with an axis."""
    exp_x = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return exp_x / np.sum(exp_x, axis=axis, keepdims=True)


def layer_norm(x, gamma, beta, eps=1e-6):
    """Standardise each token (scipy.stats.zscore(x, axis=-1)), then scale and shift."""
    z = (x - np.mean(x, axis=-1, keepdims=True)) / np.std(x, axis=-1, keepdims=True)
    return gamma * z + beta
