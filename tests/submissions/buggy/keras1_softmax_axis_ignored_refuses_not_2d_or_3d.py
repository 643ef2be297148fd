"""Blind round 35 (b35_04, issue 38): softmax ported from Keras 1.x keras/activations.py
(keras-team/keras: `ndim == 2` -> K.softmax over rows, `ndim == 3` -> the last axis, else
`raise Exception('Cannot apply softmax to a tensor that is not 2D or 3D. ' ...)`).

Mistakes:
1. softmax ignores `axis`: rows of a 2-D array (axis 1), the last axis of a 3-D one, whatever
   `axis` is. Wrong for any other axis.
2. softmax raises a plain Exception for any input that is not 2-D or 3-D (a 1-D vector, a
   batched (B, heads, T, T) score tensor).

Grader: at blind time (2f30801), neither named: stable-softmax's checks show the file's own
Exception on 1-D cases and the sums off on a 3-D axis=1 case, with `[checklist]`s only ("Pass
`axis` and keepdims=True to both np.max and np.sum ...", "For x of any number of dimensions ...").
Attention, encoder-block and vit-forward pass (2-D/3-D last-axis use). Since port35a both are
named as a pair on the two visible call checks: guards.py's "an `x` that is neither 2-D nor 3-D
... is refused" (1-D and 4-D probes raise, 2-D and 3-D ones return) with names.py's "`axis` is
taken as its default, -1, whatever is given" (`named_refusal` pairs a guard with the one single
that reproduces every value the code returned). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax':
          'op:guarded:softmax:two-or-three-axes-only+op:default:softmax:axis-as-default'}
ALIASES = ('softmax_wrong_axis',)  # the sum-to-1 property's verdict on the axis ignored


def softmax(x, axis=-1):
    """keras.activations.softmax (Keras 1): rows of a 2D tensor, the last axis of a 3D one."""
    x = np.asarray(x, dtype=float)
    ndim = x.ndim
    if ndim == 2:
        e = np.exp(x - np.max(x, axis=1, keepdims=True))      # K.softmax works on rows
        return e / np.sum(e, axis=1, keepdims=True)
    elif ndim == 3:
        e = np.exp(x - np.max(x, axis=-1, keepdims=True))
        s = np.sum(e, axis=-1, keepdims=True)
        return e / s
    else:
        raise Exception('Cannot apply softmax to a tensor that is not 2D or 3D. ' +
                        'Here, ndim=' + str(ndim))
