"""Blind round 61 (b61_07, issue 38): softmax ported from facebookresearch/ToMe
`tome/patch/timm.py` (ToMeAttention.forward's `attn.softmax(dim=-1)`, the last axis hard-coded).

Mistakes:
11. softmax (line 71 of the file as delivered): subtracts the max along the last axis,
    `x.max(-1, keepdims=True)`, while it sums along `axis`. Wrong only when `axis` is not the
    last axis (axis=0 on a 2-D or 3-D array).

Grader: at blind time (90d6c97e) and now, 106/110, named on stable-softmax's two checks ("In
`softmax`, your values are the model solution's with `np.max(x, keepdims=True, axis=-1)` in place
of `np.max(x, axis=axis, keepdims=True)` ..."). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:axis:softmax:max.axis=-1'}


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    x = x - x.max(-1, keepdims=True)
    e = np.exp(x)
    return e / e.sum(axis=axis, keepdims=True)
