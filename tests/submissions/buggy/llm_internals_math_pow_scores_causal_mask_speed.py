"""Blind round 49 (b49_13, issue 38): attention_scores from the "n words -> n x n comparisons"
count of ashiffxd/LLM-Internals, lib/content/attention-complexity.ts, written with JS-style
`Math.pow` as `math.pow(num_tokens, 2)`; one concept answer changed by hand.

Mistakes:
1. attention_scores returns a float: `attention_scores(197)` is 38809.0. The API wants an int.
2. `ANSWERS["causal_mask"] = "speed"`. The right option is "bidirectional".

Grader: at blind time (7e618553) and now, both named: mistake 1 on attention-cost ("In
`attention_scores`, the count `T * T` comes out as a float (a number ending in .0), as `/`,
`math.pow` or a float constant make it: a count is an integer. ..."), mistake 2 on no-causal-mask
("A mask saves no compute: the T x T scores are computed either way, then masked. ..."). Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'attention-cost': 'op:count_as_float:attention_scores:count-as-float',
          'no-causal-mask': 'causal_mask:speed'}


def attention_scores(num_tokens):
    return math.pow(num_tokens, 2)


ANSWERS["causal_mask"] = "speed"
