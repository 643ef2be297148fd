"""Blind round 81 (b81_03, issue 38): softmax ported from chocopie116/zero-deep-learning
`common/functions.py` (the book's version, kept with its tab indentation).

Mistakes:
1. softmax (lines 14-23 of the file as delivered): `axis` is never read: a 2-D input is
   transposed and normalised over its rows, any other over the whole array (one global max and
   one global sum). Wrong for 2-D input with axis=0 and for every 3-D input; 1-D and 2-D with
   axis=-1 are right, stable near 1000.

Grader: at blind time (b5c841e9) and now, 105/110. Mistake 1 named on stable-softmax (hidden check: "In `softmax`,
`axis` is never read: a 2-D `x` is worked over its rows whatever `axis` is, any other over the
whole array at once ..."; visible check: "`axis` is taken as its default, -1, whatever is
given", true of the 2-D case it is attached to). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:rows_or_whole:softmax:axis-rows-or-whole'}
ALIASES = ('op:default:softmax:axis-as-default',)  # the visible check's 2-D case of the same slip


def softmax(x, axis=-1):
	x = np.asarray(x, dtype=float)
	if x.ndim == 2:
		x = x.T
		x = x - np.max(x, axis=0)
		y = np.exp(x) / np.sum(np.exp(x), axis=0)
		return y.T

	x = x - np.max(x) # オーバーフロー対策
	return np.exp(x) / np.sum(np.exp(x))
