"""Blind round 43 (b43_12, issue 38): the counting functions ported from the Purdue
transformer notes, "04_vit" (https://www.math.purdue.edu/~buzzard/notes/transformers/04_vit.html:
"For a H x W image this gives HW/P^2 patches"), then [CLS] and the attention map over every
token. num_tokens and attention_scores are right (num_tokens inherits the float).

Mistakes:
1. num_patches returns `H * W / P ** 2`, a float (196.0).
2. num_patches has no tiling check: `num_patches(6, 8, 4)` returns 3.0 instead of raising
   ValueError.

Grader: at blind time (b20830f) and now, both named by pixels_over_patch_area: "The number is
right but it is a float: HW/P**2 with `/` gives 196.0 ..." and "HW/P**2 is only a patch count
when P divides both sides; here it does not, so raise ValueError ..." on patch-count. Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'pixels_over_patch_area'}
CORRECT = ('num_tokens', 'attention_scores')


def num_patches(H, W, P):
    """HW / P^2 patches (4 for the 8x8 toy image with P = 4, 196 for 224 and P = 16)."""
    return H * W / P ** 2

def num_tokens(H, W, P, cls_token=True):
    """The patch tokens, plus one row for [CLS] when the model uses it."""
    n = num_patches(H, W, P)
    if cls_token:
        n = n + 1
    return n

def attention_scores(num_tokens):
    """One head's attention map is num_tokens x num_tokens."""
    return num_tokens * num_tokens
