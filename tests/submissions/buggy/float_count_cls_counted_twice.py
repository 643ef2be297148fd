"""Lab 4 submission.

Mistakes (2):
- num_patches returns H * W / P ** 2 with true division: a float (196.0), not an int.
- attention_scores adds one for [CLS] again, (num_tokens + 1) ** 2, though num_tokens
  already counts it.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'pixels_over_patch_area', 'attention-cost': 'op:count:attention_scores:T-plus-1'}


def num_patches(H, W, P):
    """N = HW / P^2 (lecture section 4)."""
    if H % P != 0 or W % P != 0:
        raise ValueError("P must divide H and W")
    return H * W / P ** 2


def attention_scores(num_tokens):
    """T^2 scores, T = patches + [CLS]."""
    T = num_tokens + 1
    return T ** 2
