"""Blind round 8 (b8_08, issue 38): counting helpers from a "transformer FLOPs" notebook.

Mistakes:
1. attention_scores: `T * (T + 1) // 2`, the lower triangle of a causal attention map, as
   FLOP-counting posts count only the unmasked scores. Shows always (T > 1).
2. num_tokens: computes `(H // P) * (W // P)` itself, the grid a stride-P convolution gives, and
   never raises: partial patches are dropped. Shows only on sizes that do not tile.
3. patch_dim: `math.pow(P, 2) * C`, a float (768.0). Shows always (the value is right, the type
   is not).

Grader: all three are named: the floor count (tokens_floor_division), the triangle and the float
(the error model's counts.py); the T x T checklist stays on the property check.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'attention-cost': 'op:triangle:attention_scores:T-squared-plus-one-halved',
          'token-count': 'tokens_floor_division',
          'flatten-length': 'op:count_as_float:patch_dim:count-as-float'}


def attention_scores(num_tokens):
    """Scores in one attention map of one head."""
    T = num_tokens
    return T * (T + 1) // 2


def num_tokens(H, W, P, cls_token=True):
    """Sequence length T entering the transformer: the N patches, plus one row for [CLS]."""
    grid_h, grid_w = H // P, W // P      # a stride-P conv gives this grid
    n = grid_h * grid_w
    return n + 1 if cls_token else n


def patch_dim(P, C=3):
    """Numbers in one flattened P x P x C patch, before the linear map: P * P * C."""
    return math.pow(P, 2) * C
