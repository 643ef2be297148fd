"""Blind round 28 (b28_10, issue 38): softmax and layer_norm ported from scikit-learn
(sklearn/utils/extmath.py softmax(X, copy=True): X -= max, np.exp(X, X), X /= sum;
sklearn/preprocessing StandardScaler: (X - mean_) / scale_, scale_ the std over axis 0 with
_handle_zeros_in_scale replacing a zero std by 1, no epsilon). The student's top-level helper
`_handle_zeros_in_scale` is nested in layer_norm here: the builder replaces only the solution's
own definitions.

Mistakes:
1. softmax works in place with copy=False: the caller's array is overwritten (and an integer
   array cannot be exponentiated in place).
2. layer_norm takes mean and std over axis 0 instead of the last axis: 1-D inputs are right.
3. layer_norm has no eps at all (a zero std becomes 1): shows on small-variance tokens or a large
   eps, 1-D inputs included.

Grader: at blind time and now, (1) named: the in-place change on stable-softmax; (2) named: one
slip at 2 places, the mean and the variance over axis 0 instead of axis -1, on layer-norm;
(3) not named: layer-norm's eps check observes "the same value, 0, in every position" (the axis
slip's effect on a (1, 4) input) and its hidden random check has no hint line; vit-checkpoint
observes the broken functions.
Since 2026-12-07 (pairs of whole-function rewrites, pairs.stacked, and a pair's small constant said as
far as the calls tell it, constants.settled), layer-norm's eps check names (3) with (2): "2 mistakes
at once: (1) One slip, made at 2 places: ... axis 0 ... (2) In `layer_norm`, eps is a value below
about 1e-10 (0 and every power of ten up to 1e-11 give these outputs ...)", true of code with no
eps. Its hidden random check has the checklist only (true). Judged whole at b9994292: since
abec4235 (a pair's small constant said as far as the calls tell it, constants.settled) every
mistake is named, (1) on stable-softmax's three failed checks, (2) on layer-norm's small
examples, (2) with (3) on its eps check, and no hint is wrong: in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'changes_input_in_place',
          'layer-norm': ('op:axis:layer_norm:mean.axis=0+op:axis:layer_norm:var.axis=0'
                         '+op:constant:layer_norm:eps=below-1e-10')}  # no eps: a range from 0


def softmax(x, axis=-1, copy=False):
    """sklearn.utils.extmath.softmax, with an axis."""
    X = np.copy(x) if copy else x
    max_prob = np.max(X, axis=axis, keepdims=True)
    X -= max_prob
    np.exp(X, X)
    sum_prob = np.sum(X, axis=axis, keepdims=True)
    X /= sum_prob
    return X


def layer_norm(x, gamma, beta, eps=1e-6):
    """StandardScaler().fit_transform(x), then the learned scale and shift."""
    def _handle_zeros_in_scale(scale):
        scale = np.asarray(scale, dtype=float)
        return np.where(scale == 0.0, 1.0, scale)

    x = np.asarray(x, dtype=float)
    mean_ = x.mean(axis=0)
    scale_ = _handle_zeros_in_scale(x.std(axis=0))
    return (x - mean_) / scale_ * gamma + beta
