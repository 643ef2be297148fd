"""Blind round 80 (b80_11, issue 38): patch_dim and softmax ported from mcolletta/max-llm-book
`book/src/step_11.md`.

Mistakes:
1. patch_dim (line 23 of the file as delivered): default `C=1`, so `patch_dim(16)` gives 256,
   not 768. Right when C is passed.
2. softmax (line 79): `e / e.sum(axis=axis).reshape(-1, 1)`. Right only for 2-D input along the
   last axis; wrong or raises on 1-D input, on batched 3-D input, and for axis=0 on a non-square
   2-D array.

Grader: at blind time (a4b8673f) and now, 100/110. Mistake 1 named on flatten-length ("In
`patch_dim`, `C` defaults to 1 instead of 3"); mistake 2 named on stable-softmax ("made a column
with `.reshape(-1, 1)` instead of keepdims=True"; its "right for a (T, d) array" is imprecise with
axis=0, the fix right). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'flatten-length': 'op:default_changed:patch_dim:C-default-1',
          'stable-softmax': 'op:kept_by_index:softmax:sum.keepdims-as-column'}


def patch_dim(P, C=1):
    return P * P * C


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=np.float64)
    e = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e / e.sum(axis=axis).reshape(-1, 1)
