"""Blind round 45 (b45_13, issue 38): num_tokens and attention_scores ported from a
VitFlopsConfig / estimate_vit_forward_flops(cfg, *, resolution) script (`grid = res //
patch_size; n_patches = grid * grid; seq_len = n_patches + (1 if cfg.include_class_token else
0)`), with res = H.

Mistakes:
1. num_tokens assumes a square image: the grid is H // P on both sides, and only H is tested
   for tiling. Square images match; (4, 6, 2) gives 5 against 7, and (4, 5, 2) returns 5 where
   the lecture's raises.
2. attention_scores adds a [CLS] again (`include_class_token=True` by default) and returns
   (T + 1) ** 2: 39204 for T = 197.

Grader: at blind time (fe6e9573) and now, both named: on token-count's hidden checks (the
visible ones are square) "`W // P` reads `H` where `W` belongs" and, with "the tiling test
`check_tiling(H, W, P)` tests the height only" (2 mistakes at once), on the non-tiling sizes;
on attention-cost "`T * T` is computed as `(T + 1) * (T + 1)`". The check of num_tokens and
attention_scores together gives an observation (num_tokens loses points in token-count) though
its square case fails from attention_scores alone. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'token-count': 'op:tiling:num_tokens/num_patches:height-only'
                         '+op:sibling:num_tokens/num_patches:W-as-H',
          'attention-cost': 'op:count:attention_scores:T-plus-1'}


def num_tokens(H, W, P, cls_token=True):
    """Sequence length T entering the transformer: the N patches, plus one row for [CLS]."""
    res = int(H)
    if res <= 0:
        raise ValueError("resolution must be positive")
    if res % int(P) != 0:
        raise ValueError(f"resolution {res} must be divisible by patch_size {P}")
    grid = res // int(P)
    n_patches = int(grid * grid)
    seq_len = int(n_patches + (1 if cls_token else 0))
    return seq_len


def attention_scores(num_tokens, include_class_token=True):
    """Scores in one attention map of one head: every token against every token."""
    seq_len = int(num_tokens + (1 if include_class_token else 0))
    return seq_len * seq_len
