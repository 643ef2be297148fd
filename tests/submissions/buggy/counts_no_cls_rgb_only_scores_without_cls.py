"""Blind round 5 (b5_12, issue 38): the counting functions written quickly, tinygrad-style one-liners.

Mistakes:
1. num_tokens: always adds 1 for [CLS]; the cls_token argument is ignored. Shows only with
   cls_token=False.
2. patch_dim: returns P * P * 3 (RGB hard-coded); the C argument is ignored. Shows only when
   C != 3 (patch_dim(2, C=1) gives 12, not 4).
3. attention_scores: counts only the patch tokens, (num_tokens - 1) ** 2, leaving [CLS] out
   (197 gives 38416, not 38809). Shows on every input.

Grader: All three are named.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'token-count': 'cls_always',
          'flatten-length': 'op:default:patch_dim:C-as-default',
          'attention-cost': 'op:count:attention_scores:T-minus-1'}


def num_tokens(H, W, P, cls_token=True):
    """Sequence length: the patches and the [CLS] token."""
    return num_patches(H, W, P) + 1


def patch_dim(P, C=3):
    """Numbers in one flattened RGB patch."""
    return P * P * 3


def attention_scores(num_tokens):
    """Every patch token against every patch token."""
    n = num_tokens - 1          # patches
    return n * n
