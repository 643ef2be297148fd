"""Blind round 45 (b45_03, issue 38): softmax ported from vanhao-le/PVCD-Pytorch, chip/utils.py
(`softmax(scores)`: `es = np.exp(scores - scores.max(axis=-1)[..., None])`, divided by
`es.sum(axis=-1)[..., None]`), given the API's `axis` argument.

Mistakes:
1. `axis` is ignored: the normalisation is always over the last axis. Right for the default
   axis (and stable: the max is subtracted); wrong for any other axis.

Grader: at blind time (fe6e9573) and now, named: "In `softmax`, `axis` is taken as its default,
-1, whatever is given." on the small examples (axis=0) and the hidden check; the "sum to 1"
check gives a checklist. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:default:softmax:axis-as-default'}
ALIASES = ('softmax_wrong_axis',)


def softmax(x, axis=-1):
    """exp(x) normalised to sum to 1 along `axis`; any shape in, the same shape out."""
    scores = np.asarray(x)
    es = np.exp(scores - scores.max(axis=-1)[..., None])
    return es / es.sum(axis=-1)[..., None]
