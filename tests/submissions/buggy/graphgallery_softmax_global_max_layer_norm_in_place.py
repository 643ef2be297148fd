"""Blind round 44 (b44_06, issue 38): softmax ported from graphgallery's numpy softmax
(code-search file id 4448822881, `np.exp(x - np.max(x))`); layer_norm from a numpy
normalisation helper (code-search file id 1230934046, `X -= np.mean(...)`, `X /= ...`).

Mistakes:
1. softmax: subtracts the global max of the whole array instead of the max along `axis`: a row
   far below another underflows to 0/0 = nan.
2. layer_norm: normalises the caller's array in place (`X = x; X -= mean; X /= sqrt(var +
   eps)`): the value returned is right but the input is overwritten, so encoder_block's
   residual adds the normalised x.

Grader: at blind time (0fc72e8) and now, both named: "In `softmax`, your values are the
lecture's with `np.max(x, keepdims=True)` in place of `np.max(x, axis=axis, keepdims=True)` ..."
on stable-softmax's "no overflow near 1000", and "Change no array `layer_norm` is given in place
..." on layer-norm. vit-checkpoint observes layer_norm and softmax. Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {
    'stable-softmax': 'op:axis:softmax:max.axis=None',
    'layer-norm': 'changes_input_in_place',
}


def softmax(x, axis=-1):
    """Numpy version of Softmax activation function

    Parameters
    ----------
    x : np.ndarray
        Elements to softmax.
    axis : int, optional
        Axis or axes along which a softmax is performed, by default -1.

    Returns
    -------
    softmax_along_axis: np.ndarray
        An array with the same shape as `x`.
    """
    exp_x = np.exp(x - np.max(x))
    return exp_x / exp_x.sum(axis=axis, keepdims=True)

def layer_norm(x, gamma, beta, eps=1e-6):
    """Normalise each token (last axis), then scale and shift.

    Parameters
    ----------
    x : (..., d) array, gamma, beta : (d,)
    """
    X = x
    X -= np.mean(X, axis=-1, keepdims=True)
    X /= np.sqrt(np.var(X, axis=-1, keepdims=True) + eps)
    return X * gamma + beta
