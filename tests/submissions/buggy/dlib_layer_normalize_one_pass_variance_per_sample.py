"""Blind round 59 (b59_06, issue 38): layer_norm ported from davisking/dlib
`dlib/cuda/cpu_dlib.cpp` (cpu::layer_normalize: means and sums of squares per sample). The
student's top-level `layer_normalize(eps, src, gamma, beta)` is nested in layer_norm here: the
builder replaces only the solution's own definitions.

Mistakes:
9. layer_norm (line 109 of the file as delivered): one-pass variance `E[x^2] - mean^2` (the
   source's sum of squares). Wrong only for values far from zero relative to their spread: abs
   error ~1e-4 at offset 1e6, ~5e-2 at 1e7, garbage at 1e8 (unit spread).
10. layer_norm (lines 100-101): as in dlib, one mean and variance per *sample*, the leading
    axis, over everything else: a 3-D (B, T, d) input has each batch item normalised over T*d
    instead of each token over d. Wrong only for batched (>= 3-D) input; 1-D and 2-D agree.

Grader: at blind time (528b2ec3) and now, 107/110, both named on layer-norm ("Your `layer_norm`
takes the variance in one pass, mean(x**2) - mean(x)**2 ... Subtract the mean first"; "the mean
and variance are taken over every axis but the first ... a batch is normalised per sample instead
of per token"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:norm_axes:layer_norm:over-sample'}
ALIASES = ('layer_norm_one_pass_variance',)  # the file's other mistake, named on the same exercise


def layer_norm(x, gamma, beta, eps=1e-6):
    def layer_normalize(eps, src, gamma, beta):
        """cpu::layer_normalize."""
        num_samples = src.shape[0] if src.ndim > 1 else 1
        p_src = src.reshape(num_samples, -1)
        num = p_src.shape[1]
        # compute means, and sum of squares
        means = p_src.sum(axis=1)
        invstds = (p_src * p_src).sum(axis=1)
        means /= num
        invstds /= num
        # compute variances
        invstds = 1.0 / np.sqrt(invstds - means * means + eps)
        dest = (p_src - means[:, None]) * invstds[:, None]
        return dest.reshape(src.shape) * gamma + beta

    return layer_normalize(eps, np.asarray(x, dtype=float), gamma, beta)
