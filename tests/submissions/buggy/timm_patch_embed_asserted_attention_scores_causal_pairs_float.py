"""Blind round 56 (b56_02, issue 38), recreated: linear_patch_embed adapted from timm's
`PatchEmbed.forward` (timm/layers/patch_embed.py: `_assert(H % self.patch_size[0] == 0, ...)`
before `x = self.proj(x)`, the conv written as the flattened patches times W_e);
attention_scores from a sequence-cost helper that counts a causal mask's visible pairs
(`n * (n + 1) / 2`, true division). The round's files are lost: rebuilt from their description.

Mistakes:
1. `linear_patch_embed` refuses an image P does not tile with `assert` (AssertionError), where
   the API raises ValueError (patchify's).
2. `attention_scores(T)` returns `T * (T + 1) / 2`: the pairs a causal mask keeps (the lower
   triangle with the diagonal: each token against itself and those before it), and a float
   because of `/` (19503.0 for 197 tokens, where one head's map holds T**2 = 38809 scores, an
   integer). Only T = 1 agrees in value, and even then as 1.0.

Grader: at blind time mistake 2 got only the checklist of attention-cost (neither the triangle
with `//`, an int, nor the count as a float reproduces it alone, and both edit the same node).
Now M1 named as before ("Your code refused the input with `assert` (AssertionError), where
ValueError is asked for: ..."), M2 by error_model.counts' triangle halved with true division:
"In `attention_scores`, `T * T` is counted as `T * (T + 1) / 2`: only the pairs a causal mask
keeps (the lower triangle with its diagonal: each token against itself and those before it),
and `/` makes the count a float (a number ending in .0), where a count is an integer. The
lecture's map has no mask: ...". Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'linear-patch-embed': 'refused_with_assert',
          'attention-cost': 'op:triangle:attention_scores:T-squared-plus-one-halved-true-division'}


def linear_patch_embed(image, W_e, b_e, P):
    """timm's PatchEmbed: a P x P, stride-P projection of each patch, written as a matmul."""
    H, W = image.shape[0], image.shape[1]
    assert H % P == 0, f"Input height ({H}) should be divisible by patch size ({P})."
    assert W % P == 0, f"Input width ({W}) should be divisible by patch size ({P})."
    x = patchify(image, P)  # (num_patches, P*P*C), the conv's receptive fields flattened
    return x @ W_e + b_e


def attention_scores(num_tokens):
    """Scores in one attention map of one head: every token against every token, T**2.

    Section 4 step 5: 197 tokens ([CLS] included) give 38809 scores per head.
    """
    n = num_tokens
    # every query attends to itself and the tokens before it
    return n * (n + 1) / 2
