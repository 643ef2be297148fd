"""Blind round 78 (b78_15, issue 38): softmax and self_attention ported from
andreidhoang/scratch_llm `bench/kernels/reduce/softmax.py` (an online softmax: one fused pass
with a running max and denominator).

Mistakes:
1. softmax (line 71 of the file as delivered): the running max starts at 0 instead of -inf:
   rows whose entries are all far below 0 ([-1000, -1001, -1002]) underflow to 0/0 = NaN;
   ordinary rows, +1000 rows and masked (-inf) entries are right.
2. self_attention (lines 89-100): no test that `heads` divides d, and `np.array_split` cuts the
   heads unevenly, so heads not dividing d returns an array instead of raising ValueError;
   right when heads divides d.

Grader: at blind time (ddfccf96) and now, 104/110. Mistake 1 named on stable-softmax ("In
`softmax`, the max subtracted before exp is floored at 0 ... (a running max started at 0 instead
of -inf ...) ... Start the max from -inf"), mistake 2 on multi-head-attention ("In
`self_attention`, nothing checks that `heads` divides the width d ... the heads are cut by
`np.array_split(..., heads, axis=-1)` ... Raise ValueError when d % heads != 0"). Every mistake
named, so in buggy/. In the judge's parallel run only, under load, no-causal-mask's "causal=True
gives GPT's mask" timed out (a load-induced timeout, not counted).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:max_floored:softmax:max-floored=0',
          'multi-head-attention':
          'op:unchecked_heads:self_attention:heads-unchecked-array-split-scale-d//heads'}


def softmax(x, axis=-1):
    x = np.moveaxis(np.asarray(x, dtype=float), axis, -1)
    run_max = np.zeros(x.shape[:-1])          # running max
    run_den = np.zeros(x.shape[:-1])          # running denominator
    for j in range(x.shape[-1]):              # one fused pass over the row
        xj = x[..., j]
        new_max = np.maximum(run_max, xj)
        run_den = run_den * np.exp(run_max - new_max) + np.exp(xj - new_max)
        run_max = new_max
    out = np.exp(x - run_max[..., None]) / run_den[..., None]   # normalize pass
    return np.moveaxis(out, -1, axis)


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    d_h = d // heads
    q = x @ p["Wq"] + p["bq"]
    k = x @ p["Wk"] + p["bk"]
    v = x @ p["Wv"] + p["bv"]
    out = []
    for qh, kh, vh in zip(np.array_split(q, heads, axis=1),
                          np.array_split(k, heads, axis=1),
                          np.array_split(v, heads, axis=1)):
        s = qh @ kh.T / math.sqrt(d_h)
        if causal:
            s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
        out.append(softmax(s, axis=-1) @ vh)
    return np.concatenate(out, axis=1) @ p["Wo"] + p["bo"]
