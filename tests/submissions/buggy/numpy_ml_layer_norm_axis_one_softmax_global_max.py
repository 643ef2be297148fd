"""Blind round 20 (b20_07, issue 38): layer_norm and softmax ported from ddbourgin/numpy-ml
(numpy_ml/neural_nets/layers/layers.py, utils.py: layer classes with a `hyperparameters` dict and
`_fwd`, LayerNorm1D over axis 1 of its (n_ex, n_in) input). The student's top-level classes
`LayerNorm1D` and `Softmax` are nested in layer_norm and softmax here: the builder replaces only
the solution's own definitions.

Mistakes:
1. layer_norm takes the mean and variance over axis=1 (LayerNorm1D's axis for its 2-D input):
   right for (T, d) tokens, wrong for batched (..., T, d) input.
2. softmax shifts by the global max, np.max(X), instead of the max along `axis`: the same values
   mathematically, but a row far below the global max underflows to 0/0 = nan.

Grader: at blind time and now, both named: the max "over the whole array instead of the axis
`axis` it is given" on the overflow check, and "One slip, made at 2 places" (np.mean and np.var
over axis 1 instead of -1) on the random check. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:axis:softmax:max.axis=None',
          'layer-norm': 'op:axis:layer_norm:mean.axis=1+op:axis:layer_norm:var.axis=1'}


def layer_norm(x, gamma, beta, eps=1e-6):
    class LayerNorm1D:
        def __init__(self, epsilon=1e-6):
            self.hyperparameters = {"layer": "LayerNorm1D", "epsilon": epsilon}

        def _fwd(self, X, scaler, intercept):
            ep = self.hyperparameters["epsilon"]
            X_mean, X_var = X.mean(axis=1, keepdims=True), X.var(axis=1, keepdims=True)
            lnorm = (X - X_mean) / np.sqrt(X_var + ep)
            return scaler * lnorm + intercept

    return LayerNorm1D(epsilon=eps)._fwd(np.asarray(x, dtype=float), gamma, beta)


def softmax(x, axis=-1):
    class Softmax:
        def __init__(self, dim=-1):
            self.hyperparameters = {"layer": "SoftmaxLayer", "dim": dim}

        def _fwd(self, X):
            e_X = np.exp(X - np.max(X))
            return e_X / e_X.sum(axis=self.hyperparameters["dim"], keepdims=True)

    return Softmax(dim=axis)._fwd(np.asarray(x, dtype=float))
