"""Blind round 4 (b4_14, issue 38), a student who read DeiT, with two mistakes: num_tokens adds 2
tokens with [CLS] ([CLS] and DeiT's distillation token), 198 for 224/16 (named: the 1 a count
adds is 2); attention_scores is math.pow(num_tokens, 2), a float (38809.0): the value is right,
its type is not. The float is said in the check's message ("the value is right but it is a
float") and named by the error model (counts.py: the count returned as a float).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'token-count': 'op:count_constant:num_tokens:1-as-2',
          'attention-cost': 'op:count_as_float:attention_scores:count-as-float'}


def num_tokens(H, W, P, cls_token=True):
    """Patches plus the class token and the distillation token (DeiT)."""
    n = num_patches(H, W, P)
    if cls_token:
        n += 2          # cls_token + dist_token
    return n


def attention_scores(num_tokens):
    """Entries of one T x T attention map."""
    return math.pow(num_tokens, 2)
