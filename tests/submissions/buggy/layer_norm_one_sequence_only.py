"""layer_norm written for one (T, d) sequence: `T, d = x.shape` fails on a batch of them.
Since session 15: its layer-norm mistake is observed (only_2d_inputs), not named, so in unnamed/.
Grader: since session 16 named (layouts.two_axes_unpacked: "the shape of `x` is read as two
sizes, `T, d = x.shape`", the student's ValueError message reproduced), so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:two_axes_unpacked:layer_norm:x-shape-as-T-d'}


def layer_norm(x, gamma, beta, eps=1e-6):
    T, d = x.shape
    mean = x.sum(axis=1).reshape(T, 1) / d
    var = ((x - mean) ** 2).sum(axis=1).reshape(T, 1) / d
    return (x - mean) / np.sqrt(var + eps) * gamma + beta
