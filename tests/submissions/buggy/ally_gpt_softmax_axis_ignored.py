"""Blind round 70 (b70_14, issue 38): softmax ported from Ally511/GPT `gelu.py` (the file's
GELU is the source's tanh approximation, accepted).

Mistakes:
1. softmax (lines 71-72 of the file as delivered): the max and the sum always over axis -1, the
   `axis` argument ignored. Right for the default; wrong for axis=0 (2-D) or axis=1 (3-D).

Grader: at blind time (3f040026) and now, 105/110, named on stable-softmax ("In `softmax`,
`axis` is taken as its default, -1, whatever is given"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:default:softmax:axis-as-default'}
ALIASES = ('softmax_wrong_axis',)  # the sums property's checklist on the same mistake


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)
