"""Blind round 44 (b44_13, issue 38): num_patches ported from a Keras 3 ViT (class
Patches(layers.Layer): `num_patches_h = height // self.patch_size[0]`); attention_scores from
danielpwarren/open-blt, blt/model/utils.py (attention_flops_per_token(..., causal=True), `//
(2 if causal else 1)`).

Mistakes:
1. num_patches floors, `H // P * (W // P)`, with no ValueError when P does not tile (num_tokens
   inherits it).
2. attention_scores has the source's `causal=True` default, which halves the count, `T * T // 2`
   (197 tokens give 19404, not 38809): a ViT's map has no mask, T**2 scores.

Grader: at blind time (0fc72e8), the floor was named (floor division drops the pixels that do
not tile); the halving was observed by checklists only ("every token attends to every token, so
T**2 scores"), and attention-cost's paired check wrongly said num_tokens loses points in
token-count (full marks there). Now both named: the floor (floor_division_count) and the halving
(op:triangle's halved detail: "`T * T` is counted as `T * T // 2`, a causal map's scores counted
as half the square, as FLOP counters write `// (2 if causal else 1)` with causal=True; the
lecture's map has no mask"); the paired check gets a checklist, the wrong observation gone
(dependencies._compared).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'floor_division_count',
          'attention-cost': 'op:triangle:attention_scores:T-squared-halved'}


def num_patches(H, W, P):
    """Number of P x P patches in an H x W image: (H/P)(W/P)."""
    patch_size = (P, P)
    num_patches_h = H // patch_size[0]
    num_patches_w = W // patch_size[1]
    return num_patches_h * num_patches_w


def attention_scores(num_tokens, causal=True):
    """Scores in one attention map of one head, every token against every token."""
    seq_len = num_tokens
    return seq_len * seq_len // (2 if causal else 1)
