"""Blind round 51 (b51_09, issue 38): softmax ports BayesWitnesses/m2cgen,
m2cgen/interpreters/go/softmax.go (loops: max, exp, sum, divide), applied to each row with
`np.apply_along_axis(_softmax_1d, -1, x)`; layer_norm ports LuxDL/Lux.jl,
lib/LuxLib/src/api/layernorm.jl (`layernorm(x, scale, bias, σ, dims=Colon(), epsilon)`,
`fast_mean_var(x; dims, corrected=false)`), with `dims=None` as the numpy Colon(). The student's
`_softmax_1d` (top-level in the file) is nested in softmax here.

Mistakes:
1. softmax ignores its `axis` argument and always normalises the last axis: right for the default
   axis (attention is unaffected), wrong for softmax(x, axis=0) on a 2-D array.
2. layer_norm's mean and variance are over all the elements (`dims=None`), not over the last axis:
   right on a 1-D vector, wrong on (T, d) token matrices; encoder_block and vit_forward inherit it.

Grader: at blind time (b53db91d), both named: mistake 1 on stable-softmax ("In `softmax`, `axis` is
taken as its default, -1, whatever is given."), mistake 2 on layer-norm ("One slip, made at 2
places: (1) In `layer_norm`, your values are the lecture's with `np.mean(x, keepdims=True)` in
place of `np.mean(x, axis=-1, keepdims=True)`: over the whole array instead of axis -1. (2) ...");
but vit-checkpoint's observation also blamed softmax, whose mistake cannot change the pipeline's
axis=-1 calls: "Your `layer_norm` and `softmax` lose points in their own exercises (layer-norm,
stable-softmax): where this run uses them (the lecture's pipeline does; your code may not), fix
them there first, as their mistakes may be what fails here." (with layer_norm fixed it gets 5/5),
and the banner "fix `softmax` first: 2 exercises depend on it (encoder-block, vit-forward)".

Now named: both as at blind time, and no wrong hedge: encoder-block and vit-forward pass with
layer_norm alone standing in (the student's softmax put back passes too), so the banner names
layer_norm only, and vit-checkpoint says "This check runs your functions end to end. Your
`layer_norm` loses points in its own exercise (layer-norm): where this run uses it (the lecture's
pipeline does; your code may not), fix it there first, as its mistake may be what fails here."
Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:default:softmax:axis-as-default',
          'layer-norm': 'op:axis:layer_norm:mean.axis=None+op:axis:layer_norm:var.axis=None'}
ALIASES = ('softmax_wrong_axis',)  # the sums property's verdict: axis 1 normalised as the last


def softmax(x, axis=-1):
    """Softmax of every row (port of the Go softmax(x []float64) []float64), any shape in."""
    def _softmax_1d(x):
        size = len(x)
        result = np.zeros(size)
        max_ = x[0]
        for v in x:
            if v > max_:
                max_ = v
        s = 0.0
        for i in range(size):
            result[i] = math.exp(x[i] - max_)
            s += result[i]
        for i in range(size):
            result[i] /= s
        return result

    x = np.asarray(x, dtype=float)
    return np.apply_along_axis(_softmax_1d, -1, x)


def layer_norm(x, gamma, beta, eps=1e-6, dims=None):
    """y = (x - E[x]) / sqrt(Var[x] + eps) * gamma + beta (LuxLib layernorm).

    dims: dimensions along which the mean and variance are computed.
    """
    mu = np.mean(x, axis=dims, keepdims=True)
    sigma2 = np.var(x, axis=dims, keepdims=True)      # corrected=false
    return (x - mu) / np.sqrt(sigma2 + eps) * gamma + beta
