"""Blind round 83 (b83_15, issue 38): softmax ported from
maximistic/Natural-Language-Processing-with-Attention-Models `BasicAttention.py`.

Mistakes:
1. softmax (line 74 of the file as delivered): `axis=0` by default instead of -1 (the source
   normalises each column): wrong on every input of more than one row with the default; its
   self_attention passed `axis=1` explicitly, so attention stays right.
2. softmax (line 76): no max subtraction, so scores near 1000 overflow to nan.

Grader: at blind time (2774dae9) and now, 104/110. Mistake 1 named on stable-softmax ("`axis`
defaults to 0 (`axis=0` in the signature) ... the student API's default is -1"); mistake 2 named
on stable-softmax ("the max subtraction is left out of the model solution's `x - np.max(x,
axis=axis, keepdims=True)`"). The overflow check's hint says "2 mistakes at once" on a 1-D case,
where only the missing max subtraction matters: imprecise, both are real. Every mistake named,
so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': ('op:term:softmax:drop-np.max(xaxis=axiskeepdims=True)'
                             '+op:default_flipped:softmax:axis-defaults-0')}


def softmax(x, axis=0):
    """ Calculate softmax function for an array x along specified axis """
    return np.exp(x) / np.expand_dims(np.sum(np.exp(x), axis=axis), axis)
