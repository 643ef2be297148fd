"""Blind round 30 (b30_06, issue 38): linear_patch_embed ported from lucidrains/x-transformers
(x_transformers.py ViTransformerWrapper.patch_to_embedding: Sequential(LayerNorm(patch_dim),
Linear(patch_dim, dim), LayerNorm(dim)), the LayerNorms at initialisation, gain 1 and shift 0).
The student's helper `LayerNorm` is nested in linear_patch_embed already.

Mistakes:
1. Each patch vector is layer-normalised before the projection and each token after it (one
   mistake of the port: the wrapper's two norms kept). Wrong on every input.

Grader: at blind time and now, named as "2 mistakes at once": a per-patch standardisation before
the step and one after it (its formula says 1e-6 where the code has 1e-5: within tolerance) on
linear-patch-embed, whose worked example gets only its true checklist and whose hidden check
has no hint line; kernel-stride's equivalence check observes that it tests the broken
linear_patch_embed; vit-checkpoint observes it too. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'linear-patch-embed': 'op:standardised:linear_patch_embed:standardised-biased-before-linear+op:standardised_after:linear_patch_embed:standardised-after-linear'}


def linear_patch_embed(image, W_e, b_e, P):
    """ViTransformerWrapper: rearrange into patches, then Sequential(LayerNorm(patch_dim), Linear(patch_dim, dim), LayerNorm(dim))."""
    def LayerNorm(t, eps=1e-5):
        # x-transformers' LayerNorm at initialisation: gamma = 1, beta = 0
        mean = t.mean(-1, keepdims=True)
        var = t.var(-1, keepdims=True)
        return (t - mean) / np.sqrt(var + eps)

    x = patchify(image, P)           # rearrange(img, 'b c (h p1) (w p2) -> b (h w) (p1 p2 c)')
    x = LayerNorm(x)
    x = x @ W_e + b_e
    x = LayerNorm(x)
    return x
