"""Blind round 13 (b13_07, issue 38): a cs231n-style activation zoo (ELU taken for GELU) and a
softmax written for 2-D arrays.

Mistakes:
1. encoder_block: the MLP activation is ELU, np.where(z > 0, z, exp(z) - 1), not GELU.
2. softmax: axis 0 via softmax(x.T).T, any other axis as the last: wrong only on >= 3-D input
   with a middle axis.

Grader: the softmax mistake is named (op:axis_2d:softmax:axis-0-or-last); ELU only the
encoder-block checklist ("... the MLP step by step: gelu(h @ W1 + b1) @ W2 + b2 ...").
Since ELU is among the activations swapped in (error_model/activations.py): both named.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:axis_2d:softmax:axis-0-or-last',
          'encoder-block': 'op:activation:encoder_block/mlp:act=elu'}
ALIASES = ('softmax_wrong_axis',)  # true of it: for 3-D input, axis 1 is normalised as the last


def softmax(x, axis=-1):
    """Row softmax; a column softmax is the row softmax of the transpose."""
    x = np.asarray(x, dtype=float)
    if x.ndim > 1 and axis in (0, -x.ndim):
        return softmax(x.T).T
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def encoder_block(x, p, heads):
    def elu(z, alpha=1.0):
        return np.where(z > 0, z, alpha * (np.exp(np.minimum(z, 0)) - 1))

    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    return x + elu(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
