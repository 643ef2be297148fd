"""Blind round 50 (b50_01, issue 38): layer_norm ported from caganselim/motion-cswm, layernorm.jl
(`(l::LayerNorm)(x)`: `μ = mean(x, dims=1); σ = std(x, mean=μ, dims=1); a .* (x .- μ) ./ (σ .+
ϵ) .+ b`), with the source's names μ and σ and the features axis moved to the last axis; Julia's
`std` is the corrected (n-1) estimate, ported as `np.std(..., ddof=1)`.

Mistakes:
1. The unbiased std (`ddof=1`): every input with d > 1 is scaled by about sqrt((d-1)/d) against
   the solution; d = 1 divides by zero.
2. eps is added to the std, `(x - μ) / (σ + eps)`, where the API wants `/ sqrt(var + eps)`:
   visible when the variance is small against eps.

Grader: at blind time (593126bb) and now, both named on layer-norm: "You used the unbiased
variance (ddof=1, torch.var's default). LayerNorm uses the biased one, ..." and "2 mistakes at
once: (1) You used the unbiased variance (ddof=1, torch.var's default). ... (2) eps goes inside
the square root: (x - mean) / sqrt(var + eps), not / (std + eps). ..." (and on the hidden check
"2 mistakes at once: (1) In `layer_norm`, `eps` is added outside the square root, `sqrt(var) +
eps`, ... (2) In `layer_norm`, the variance is the unbiased one (ddof=1, ...) ..."); vit-checkpoint
observes layer_norm. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'layer_norm_unbiased+layer_norm_eps_outside'}


def layer_norm(x, gamma, beta, eps=1e-6):
    # (l::LayerNorm)(x) from layernorm.jl: features along dims=1 there, the last axis here
    μ = np.mean(x, axis=-1, keepdims=True)
    σ = np.std(x, axis=-1, keepdims=True, ddof=1)
    return gamma * (x - μ) / (σ + eps) + beta
