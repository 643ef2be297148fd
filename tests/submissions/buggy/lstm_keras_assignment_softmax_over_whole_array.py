"""Blind round 82 (b82_03, issue 38): softmax ported from nik31096/lstm_keras `assignment3.py`.

Mistakes:
1. softmax (lines 76-78 of the file as delivered): `x - np.max(x)` and `np.sum(exps)` over the
   whole array, `axis` never read: right on 1-D input only; rows of a 2-D or batched input do not
   sum to 1 (self_attention, encoder_block and vit_forward inherit it).

Grader: at blind time (ee59f1b1) and now, 98/110. Mistake 1 named on stable-softmax ("`np.sum(e,
axis=axis, keepdims=True)` taken over the whole array ... Your code may also differ at the model
solution's `np.max(x, axis=axis, keepdims=True)`"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:axis:softmax:sum.axis=None+~op:axis:softmax:max.axis=None'}


def softmax(x, axis=-1):
    shiftx = x - np.max(x)
    exps = np.exp(shiftx)
    return exps / np.sum(exps)
