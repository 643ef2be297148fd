"""Blind round 41 (b41_04, issue 38): a teaching note "1. Layernorm / 2. Rmsnorm" (torch
Layernorm(x, axis=-1, eps=1e-5) with explicit loops over the rows and a running mean and mean of
squares, var = mean2 - mean * mean), as layer_norm.

Mistakes:
1. layer_norm: the variance in one pass, E[x**2] - E[x]**2: far from zero its two terms are huge
   and nearly equal (float32 x + 1e3, x + 1e7 lose their digits; below -eps the square root is
   NaN).
2. layer_norm: a loop over `x.shape[0]` reducing all of `x[i]` (divided by d): right for (T, d),
   wrong for a batch (B, T, d) (and for 1-D input).

Grader: at blind time (6092674), 1 only partly: the "adding a constant" check's failure
text says "a variance taken in one pass", its hint the checklist (layer_norm_one_pass_variance);
the small-examples float32 case the checklist only; the hidden check an observation ("returns
NaN or inf in 2 of 3 rows ... look for an overflow ..., a division by zero, or inf - inf", whose
list lacks the square root of a negative number). 2 not told: no visible check has 3-D input,
the hidden check reports its first failure, mistake 1's. Later the NaN observation's list ended
"or the square root of a negative number (a variance taken in one pass, mean(x**2) -
mean(x)**2, below zero)"; the shift property's verdict (layer_norm_one_pass_variance, told with
its checklist) counted as named; 2 still not told. Now (issue 38) the hidden check names both at
once, the error model's pair of a variance collected in one pass (`one_pass`) and each row
`x[i]` summed as a whole over the width (`row_sums`), which reproduces all 14 hidden cases, the
batched ones' NaNs included (a row's "variance" there is T * E[x^2] - T^2 * E[x]^2); the
shift property's verdict is the same first mistake (ALIASES).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:one_pass:layer_norm:var.one-pass+op:row_sums:layer_norm:row-sums'}
ALIASES = ('layer_norm_one_pass_variance',)  # the shift property's verdict on mistake 1


def layer_norm(x, gamma, beta, eps=1e-6):
    """(x - mean) / sqrt(var + eps) * gamma + beta over the last axis.

    Layernorm: y = (x - Ex) / sqrt(Var(x) + eps) * gamma + beta, with Var(x) = E[x^2] - (Ex)^2
    collected in the same pass as Ex.
    """
    x = np.asarray(x)
    bs, dim = x.shape[0], x.shape[-1]

    mean = np.zeros(bs)
    mean2 = np.zeros(bs)
    var = np.zeros(bs)
    y = np.empty(x.shape)
    for i in range(bs):
        mean[i] += np.sum(x[i])
        mean2[i] += np.sum(x[i] * x[i])
        mean[i] /= dim
        mean2[i] /= dim
        var[i] = mean2[i] - mean[i] * mean[i]

        y[i] = (x[i] - mean[i]) / np.sqrt(var[i] + eps)
    return y * gamma + beta
