"""Blind round 45 (b45_06, issue 38): layer_norm ported from dna2github/dna2sevord,
study/ai/transformer.md (`norm(.) = mean(.), std(.), (x - mean) / (std + epsilon)`), written as a
loop over `x[i]`.

Mistakes:
1. The loop normalises each `x[i]` with one scalar mean and std: one token of a (T, d) input,
   but a whole (T, d) slab of a batched (B, T, d) input. Shows on batched input only.
2. `eps` is added outside the square root, `std + eps`, instead of inside, `sqrt(var + eps)`.
   Shows with a large eps given or rows of small variance.
encoder_block and vit_forward inherit mistake 2 (within tolerance at the default eps).

Grader: at blind time (fe6e9573) and now, both named: "`eps` is added outside the square root"
on "eps inside the square root" and, with "the mean and variance are taken over every axis but the
first" (2 mistakes at once), on the hidden check. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:root:layer_norm:eps-outside-sqrt+op:norm_axes:layer_norm:over-sample'}


def layer_norm(x, gamma, beta, eps=1e-6):
    """norm(.): (x - mean) / (std + eps) for every token, then * gamma + beta."""
    x = np.asarray(x, dtype=float)
    if x.ndim == 1:
        return layer_norm(x[None, :], gamma, beta, eps)[0]
    out = np.empty_like(x)
    for i in range(x.shape[0]):          # one token at a time
        mean = np.mean(x[i])
        std = np.std(x[i])
        out[i] = (x[i] - mean) / (std + eps)
    return out * gamma + beta
