"""Blind round 32 (b32_15, issue 38): jacobgil/vit-explain, vit_rollout.py (rollout reads the
class token against the image patches, `result[0, 0, 1:]`), as attention_scores.

Mistakes:
1. attention_scores(T) returns (T - 1) ** 2: [CLS] left out: 197 gives 38416 instead of 38809.

Grader: at blind time (a78aae9) and now, named: "`T * T` is computed as `(T - 1) * (T - 1)`, with
`T` one too few (is something left out?)" on attention-cost's lecture and random checks; its
P=4 versus P=16 check gets the checklist. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'attention-cost': 'op:count:attention_scores:T-minus-1'}


def attention_scores(num_tokens):
    """Scores in one attention map of one head, as rollout reads them (result[0, 0, 1:])."""
    n = num_tokens - 1
    return n * n
