"""Blind round 50 (b50_02, issue 38): softmax ported from an R gist (aufrank's
`logsumexp`/`softmax`, copied in many R repos: `y = max(x); y + log(sum(exp(x - y)))`, then
`exp(x - logsumexp(x))`), with an axis added; and ANSWERS.

Mistakes:
1. The max is the global max of the whole array (`np.max(x)`, as R's `max(x)`), not the max
   along `axis`. Any slice ~745 or more below the global max underflows: its sum is 0, log gives
   -inf and the slice comes out as inf (`[[0, 1], [1000, 1001]]` gives `[[inf, inf], [0.269,
   0.731]]`). One row near 1000 is fine.
2. `ANSWERS["causal_mask"] = "speed"`; the right option is `"bidirectional"`.

Grader: at blind time (593126bb), (1) observed only, on "no overflow near 1000": "Your `softmax`
returns NaN or inf in 1 of 2 rows (row 1) where every expected value is finite: look for an
overflow (exp of a large number), a division by zero, ..."; (2) named: "A mask saves no compute:
the T x T scores are computed either way, then masked. ...".
Now named: (1) on "no overflow near 1000", by logsumexp.py's rewrite of the lecture's softmax in
log-sum-exp form with the max over the whole array: "In `softmax`, the softmax is taken as `exp(x
- logsumexp(x))` with the log-sum-exp's max over the whole array, `m = np.max(x)`, and only its
sum along the axis, ... a slice about 745 or more below the array's maximum has every exp
underflow to 0, its log-sum-exp is -inf and the slice comes out inf ..."; (2) as above.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:logsumexp_max:softmax:logsumexp-max-over-whole-array',
          'no-causal-mask': 'causal_mask:speed'}


def softmax(x, axis=-1):
    """exp(x) normalised to sum to 1 along `axis`; any shape in, the same shape out. The
    student's top-level helper `logsumexp` is nested here (the builder replaces only the
    solution's own definitions)."""
    def logsumexp(x, axis=-1):
        """log(sum(exp(x))) along `axis`, kept as a length-1 axis."""
        y = np.max(x)
        return y + np.log(np.sum(np.exp(x - y), axis=axis, keepdims=True))

    return np.exp(x - logsumexp(x, axis=axis))


ANSWERS["causal_mask"] = "speed"
