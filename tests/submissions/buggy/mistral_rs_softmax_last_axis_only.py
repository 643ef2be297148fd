"""Blind round 62 (b62_13, issue 38): softmax ported from EricLBuehler/mistral.rs
`mistralrs-core/src/vision_models/clip.rs` (ClipAttention's candle `softmax_last_dim`).

Mistakes:
20. softmax (lines 85-87 of the file as delivered): candle's `softmax_last_dim`: the max and the
    sum always along the last axis, `axis` ignored. Wrong only when axis is not the last one
    (axis=0 on a 2-D array).

Grader: at blind time (90d6c97e) and now, 105/110, named. Mistake 20 on stable-softmax's small and
random checks ("In `softmax`, `axis` is taken as its default, -1, whatever is given."); its
sum-to-1 property gets the checklist (softmax_wrong_axis). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:default:softmax:axis-as-default'}
ALIASES = ('softmax_wrong_axis',)  # the sum-to-1 property's verdict on mistake 20


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=np.float64)
    max_ = x.max(axis=-1, keepdims=True)
    e = np.exp(x - max_)
    return e / e.sum(axis=-1, keepdims=True)
