"""Written for issue 38's error model (error_model/pairs.stacked: two rewrites of one whole
function searched together), in the style of a fused CUDA LayerNorm kernel (apex's
`cuApplyLayerNorm`, launched with its `epsilon=1e-5`) ported to numpy: the kernel's epsilon
written into the function, and one loop iteration per row of `x`, each normalised by its own
`row.mean()` and `row.var()`.

Mistakes:
1. layer_norm: eps fixed at the kernel's 1e-5; the `eps` argument is never read. Wrong where
   eps is passed, or where a token's variance is small.
2. layer_norm: a loop over `x`'s first axis with each row's own `mean()` / `var()`: right for
   (T, d), but a (B, T, d) batch is normalised per sample (its T * d values) instead of per
   token. Wrong on batched input only.

Grader: both named together on layer-norm's hidden check ("2 mistakes at once": `eps` fixed at
1e-05 whatever is given, and the mean and variance over every axis but the first); both
rewrite the whole function, one place, and are searched as a pair (pairs.stacked). Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:default:layer_norm:eps-as-1e-05+op:norm_axes:layer_norm:over-sample'}


def layer_norm(x, gamma, beta, eps=1e-6):
    """cuApplyLayerNorm: one block per row (i1), Welford's mean and variance, then the affine."""
    epsilon = 1e-5                         # the launcher's default
    out = np.empty(np.shape(x))
    for i1 in range(len(x)):               # for (auto i1 = blockIdx.y; i1 < n1; ...)
        row = np.asarray(x[i1], dtype=np.float64)
        mu = row.mean()
        sigma2 = row.var()
        c_invvar = 1.0 / np.sqrt(sigma2 + epsilon)
        out[i1] = gamma * ((row - mu) * c_invvar) + beta
    return out
