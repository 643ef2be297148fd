"""Blind round 27 (b27_13, issue 38): layer_norm ported from Google's Praxis / Lingvo LayerNorm
(direct_scale=False: the stored scale is an offset from one, `normed_inputs *= 1 + scale`). The
student's correct self_attention (Praxis' DotProductAttention with 'TD,DNH->TNH' einsums and a
-0.7 * finfo.max mask; its top-level helper `_large_negative_number`) is left out: it grades as
the solution's.

Mistakes:
1. layer_norm multiplies by (1 + gamma) instead of gamma.

Grader: at blind time and now, named: gamma used as an offset from one, as Gemma's norm stores its
gain, on layer-norm; vit-checkpoint observes the broken layer_norm. Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:gain_from_one:layer_norm:1-plus-gamma'}


def layer_norm(x, gamma, beta, eps=1e-6):
    inputs = np.asarray(x, dtype=float)
    mean = np.mean(inputs, axis=(-1,), keepdims=True)
    var = np.mean(np.square(inputs - mean), axis=(-1,), keepdims=True)
    normed_inputs = (inputs - mean) * (1.0 / np.sqrt(var + eps))   # jax.lax.rsqrt
    normed_inputs *= 1 + gamma        # direct_scale=False
    normed_inputs += beta
    return normed_inputs
