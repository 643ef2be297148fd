"""Blind round 72 (b72_09, issue 38): softmax and self_attention ported from
nikunjpanchal22/code_clone_classification `python_t4_full/Clone_4855.py` (`softmax(z)`: `z -=
np.expand_dims(z.max(axis=1), axis=-1); np.exp(z, out=z)`; tab indentation, kept).

Mistakes:
1. softmax (lines 76-80 of the file as delivered): ignores `axis` (always axis 1, lines 77 and
   79) and works in place on the caller's array. 1-D input gives an AxisError, 3-D input a
   broadcast error or wrong values, axis=0 the axis-1 result, and the caller's array is
   overwritten. Right on 2-D input with the default axis, so self_attention (which calls it per
   head on 2-D scores) is right.
self_attention (lines 89-104) is the file's own, right: it calls softmax per head on 2-D scores
(the solution's passes it the 3-D stack of every head's, which this softmax gets wrong).
The rest of the file is the reference's with the tanh GELU (accepted).

Grader: at blind time (2df48139) and now, 103/110. Mistake 1 partly named on stable-softmax: the
axis is named on the visible checks ("One slip, made at 2 places: (1) In `softmax`, your values
are the model solution's with `np.max(x, axis=axis, keepdims=True)` taken over axis 1 ...
instead of over the axis `axis` it is given ... (2) ... `np.sum(e, axis=axis, keepdims=True)`
taken over axis 1"); the in-place write on the caller's array was not told at 2df48139 (every
case's verdict is a 1-D call that raises); since 0bbd6788 it is, on each softmax check whose
calls show it (kinds/in_place.py, written_too: the worker saw case 2's `x` changed and holding
the value returned): "`softmax` also writes into the array it is given: after the call of case
2, `x` holds the value it returned", a line after the verdict, no hint changed. At 2df48139 the
hidden check said "2 mistakes at once: (1) In `softmax`, an `x` that is not a 2-D matrix (a 1-D
vector, a 3-D stack of score matrices) is refused ... (2) In `softmax`, `axis` is taken as its
default, -1, whatever is given", part (2) wrong (the judge's wrong hint 3: the code hard-codes
axis 1, not -1); since 855463cc part (2) says "`axis` is never read: your code reduces over axis
1 (`z.max(axis = 1)`) whatever `axis` is given" (report/fixed_axis.py), and part (1) holds of
every case the check runs (its 11 cases that are not 2-D all raise). The property check could
not judge (its observation, true). Every mistake now named and no hint wrong: in buggy/; EXPECT
the visible checks' pair, ALIASES the hidden check's.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:axis:softmax:max.axis=1+op:axis:softmax:sum.axis=1'}
ALIASES = ('op:guarded:softmax:matrix-only', 'op:default:softmax:axis-as-default')  # hidden
CORRECT = ('self_attention',)  # the file's own, per head on 2-D scores


def softmax(z, axis = -1) :
	z -= np.expand_dims(z.max(axis = 1), axis = - 1)
	np.exp(z, out = z)
	z /= np.expand_dims(z.sum(axis = 1), axis = - 1)
	return z


def self_attention(x, p, heads, causal = False) :
	T, d = x.shape
	if d % heads != 0 :
		raise ValueError("heads must divide d")
	dh = d // heads
	q = np.dot(x, p ["Wq"]) + p ["bq"]
	k = np.dot(x, p ["Wk"]) + p ["bk"]
	v = np.dot(x, p ["Wv"]) + p ["bv"]
	outs = []
	for h in range(heads) :
		s = slice(h * dh, (h + 1) * dh)
		scores = np.dot(q [:, s], k [:, s].T) / math.sqrt(dh)
		if causal :
			scores [np.triu_indices(T, 1)] = - np.inf
		outs.append(np.dot(softmax(scores), v [:, s]))
	return np.dot(np.concatenate(outs, axis = 1), p ["Wo"]) + p ["bo"]
