"""Blind round 36 (b36_10, issue 38): softmax and self_attention ported from Fangzhou-Code/Learn_AI,
第四阶段：大模型/self_attention.py (plain numpy course code: `soft_max(z) = exp(z) /
expand_dims(sum(exp(z), axis=1), 1)` and the Query/Key/Value self-attention demo).

Mistakes:
1. softmax has no max subtraction: inputs near 1000 overflow to nan.
2. softmax sums over axis 1 whatever `axis` is: a batched (2, 3, 4) input is normalised along
   axis 1, `axis=0` on a 2-D array gives the row softmax, and a 1-D input raises AxisError.
The self_attention port (one head at a time, its own max shift, 2-D scores) is right.

Grader: at blind time (9ebbf4a) and now, both named as one pair on every failed check of
stable-softmax ("2 mistakes at once: (1) ... over axis 1 instead of the axis `axis` it is given
... (2) ... the max subtraction ... is left out"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax':
          'op:axis:softmax:sum.axis=1+op:term:softmax:drop-np.max(xaxis=axiskeepdims=True)'}


def softmax(x, axis=-1):
    """soft_max(z) from the self-attention demo."""
    z = np.asarray(x, dtype=float)
    t = np.exp(z)
    a = np.exp(z) / np.expand_dims(np.sum(t, axis=1), 1)
    return a


def self_attention(x, p, heads, causal=False):
    """scores = Query @ Key.T, soft_max(scores), out = scores @ Value, one head at a time."""
    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    d_h = d // heads
    Query = x @ p["Wq"] + p["bq"]
    Key = x @ p["Wk"] + p["bk"]
    Value = x @ p["Wv"] + p["bv"]
    outs = []
    for h in range(heads):
        cols = slice(h * d_h, (h + 1) * d_h)
        scores = Query[:, cols] @ Key[:, cols].T / np.sqrt(d_h)
        if causal:
            scores = np.where(np.tril(np.ones((T, T), dtype=bool)), scores, -np.inf)
        scores = scores - scores.max(axis=1, keepdims=True)
        scores = softmax(scores)
        outs.append(scores @ Value[:, cols])
    return np.concatenate(outs, axis=1) @ p["Wo"] + p["bo"]
