"""Blind round 47 (b47_13, issue 38): softmax ported from commaai/openpilot, selfdrive/modeld
parse_model_outputs.py (code-search file id 30276128910: `x -= np.max(...)`, `np.exp(x, out=x)`,
`x /= np.sum(...)`).

Mistakes:
1. The caller's float array is overwritten in place with the probabilities (the array returned
   is the caller's array); the values returned are right.

Grader: at blind time (a4c32119) and now, named: "Change no array `softmax` is given in place:
compute into a new one (`x = x - m`, not `x -= m`), or copy first ..." on stable-softmax (small
examples, overflow, hidden). Everything else passes. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'changes_input_in_place'}


def softmax(x, axis=-1):
  x -= np.max(x, axis=axis, keepdims=True)
  if x.dtype == np.float32 or x.dtype == np.float64:
    np.exp(x, out=x)
  else:
    x = np.exp(x)
  x /= np.sum(x, axis=axis, keepdims=True)
  return x
