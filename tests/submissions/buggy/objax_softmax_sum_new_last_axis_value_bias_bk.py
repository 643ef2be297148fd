"""Blind round 21 (b21_07, issue 38): softmax and self_attention ported from google/objax
(objax.functional.softmax, the zoo's einsum attention, Linear modules holding `.w` / `.b`
TrainVars; `jn` for jax.numpy, here numpy). The student's top-level `import numpy as jn` and
classes `TrainVar` and `Linear` are nested in the functions that use them here: the builder
replaces only the solution's own definitions.

Mistakes:
1. softmax's normaliser is `e.sum(axis)[..., None]` (a sum without keepdims, then a new last
   axis): right for the last axis (and 1-D input), wrong values or a broadcast error along any
   other axis.
2. self_attention's value projection adds the key bias `bk` (the line above copied) instead of
   `bv`.

Grader: at blind time the bias was named and the softmax was not (the stable-softmax checklist,
"pass `axis` and keepdims=True to both np.max and np.sum", and no hint line on the hidden check).
Now both named: keepdims written as `[..., None]` (operators.kept_by_index; on the small examples
as one slip the cases cannot place, at np.max or np.sum; on the random check at np.sum alone),
and `p['bk']` read where `p['bv']` belongs. vit-checkpoint observes the broken functions. Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:kept_by_index:softmax:sum.keepdims-as-trailing-index',
          'no-causal-mask': 'op:parameter:self_attention:bv-as-bk',
          'multi-head-attention': 'op:parameter:self_attention:bv-as-bk'}


def softmax(x, axis=-1):
    import numpy as jn

    x = jn.asarray(x)
    e = jn.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis)[..., None]


def self_attention(x, p, heads, causal=False):
    import numpy as jn

    class TrainVar:
        def __init__(self, value):
            self.value = value

    class Linear:
        def __init__(self, w, b):
            self.w = TrainVar(w)
            self.b = TrainVar(b)

        def __call__(self, x):
            return jn.dot(x, self.w.value) + self.b.value

    t, d = x.shape
    if d % heads:
        raise ValueError(f"{heads} heads do not divide width {d}")
    dh = d // heads
    q = Linear(p["Wq"], p["bq"])(x).reshape(t, heads, dh)
    k = Linear(p["Wk"], p["bk"])(x).reshape(t, heads, dh)
    v = Linear(p["Wv"], p["bk"])(x).reshape(t, heads, dh)
    logits = jn.einsum("qhd,khd->hqk", q, k) / math.sqrt(dh)
    if causal:
        logits = jn.where(jn.tril(jn.ones((t, t), bool)), logits, -jn.inf)
    w = softmax(logits)
    y = jn.einsum("hqk,khd->qhd", w, v).reshape(t, d)
    return Linear(p["Wo"], p["bo"])(y)
