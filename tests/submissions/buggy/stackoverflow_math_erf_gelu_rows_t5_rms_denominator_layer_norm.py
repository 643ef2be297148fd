"""Blind round 15 (b15_02, issue 38): GELU from a StackOverflow answer ("numpy has no erf, use
math.erf in a list comprehension"), LayerNorm from an "ML from scratch" blog that starts from T5's
RMSNorm (HF T5LayerNorm) and adds the mean subtraction.

Mistakes:
1. gelu iterates over x calling math.erf on each item: right for a 1-D array only; on the (T, 4d)
   hidden layer each item is a row and math.erf raises TypeError. encoder_block calls it;
   encoder_block itself is the solution's, listed here only so that its exercise may lose points
   (no `uses:` line names gelu).
2. layer_norm subtracts the mean but divides by sqrt(mean(x**2) + eps), the uncentred second
   moment (RMSNorm's denominator), instead of sqrt(var + eps). Right only when a token's mean is 0.

Grader: at blind time and now, gelu's TypeError gets only the encoder block's checklist (the
traceback points into gelu); the LayerNorm denominator is observed ("times 0.4677, everywhere:
one scale factor is off") plus the "adding a constant" property's checklist (labelled
mean_not_subtracted, though the mean is subtracted; the denominator is what is uncentred).
Nothing named.
Since blind round 15's fixes the uncentred denominator is named (the variance taken about zero);
the 1-D-only GELU is not.
Since session 15 the activation computed item by item with math's scalar functions is named on
encoder-block (a TypeError on the (T, 4d) hidden layer, its message the student's): every mistake
named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:norm:layer_norm:variance-about-zero',
          'encoder-block': 'op:activation_by_item:encoder_block/mlp:act=by-item'}
ALIASES = ('mean_not_subtracted',)  # the shift property's checklist for the uncentred variance


def layer_norm(x, gamma, beta, eps=1e-6):
    """LayerNorm from an ML-from-scratch blog (built on T5's RMSNorm: variance = mean of squares)."""
    mean = x.mean(axis=-1, keepdims=True)
    variance = np.mean(x ** 2, axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(variance + eps) * gamma + beta


def gelu(x):
    """Exact GELU with math.erf (StackOverflow: numpy has no erf, loop with math.erf)."""
    return np.array([0.5 * v * (1.0 + math.erf(v / math.sqrt(2.0))) for v in x])


def encoder_block(x, p, heads):
    """The pre-LN encoder block (T, d) -> (T, d) (section 3 step 5):

    x = x + self_attention(layer_norm(x, ln1_g, ln1_b), p, heads)
    x = x + gelu(layer_norm(x, ln2_g, ln2_b) @ W1 + b1) @ W2 + b2
    """
    ### BEGIN SOLUTION
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    h = layer_norm(x, p["ln2_g"], p["ln2_b"])
    return x + gelu(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    ### END SOLUTION
