"""Blind round 50 (b50_11, issue 38): self_attention ported from karpathy/llm.c
`attention_forward_cpu` (dev/cuda/attention_forward.cu): per query t and per head, pass 1 the
dot products and their running max `maxval`, pass 2 exp and sum, the `expsum == 0` guard on
`expsum_inv`, pass 3 normalise, pass 4 the weighted values; the causal bound `t2 <= t` applied
only when causal=True.

Mistakes:
1. `maxval` starts at -10000.0 (the source's placeholder), not -inf. When every visible score of
   a row is below about -10745 (values far from 0, e.g. Wq = I, Wk = -I, x ~ 100), all exps
   underflow to 0, the `expsum == 0` guard sets the weights to 0 and the head outputs 0 (the
   layer returns just `0 @ Wo + bo`), where the solution returns a proper attention average.
   Causal or not, any heads. Ordinary scores are exact.

Grader: at blind time (593126bb) 110 / 110: "multi-head-attention ... 9 / 9 ok"; no check gives
attention scores that low (the attention generators use standard-normal inputs and weights).
multi-head-attention's head-count check has a case with tokens far from zero (every feature
near 100) since: some heads' scores all lie far below -10745 there.

Now named: multi-head-attention's several-head-counts check, "In `self_attention` (at the
lecture's step `softmax(scores)`), the max subtracted before exp is floored at -10000,
`np.maximum(np.max(x, axis=axis, keepdims=True), -10000)` (a running max started at -10000
instead of -inf, as llm.c's `float maxval = -10000.0f;` starts it; that floor reproduces your
outputs on these cases): a slice whose every value lies more than about 745 below -10000 has
every exp underflow to 0, so it comes out as all zeros (its zero sum guarded, `1 / sum` taken
as 0), where the lecture subtracts the slice's own max, ... Start the max from -inf (or from the
slice's first value)."
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention':
          'op:max_floored:self_attention/attention/softmax:max-floored=-10000.zero-sum-as-0'}


def self_attention(x, p, heads, causal=False):
    """llm.c attention_forward_cpu for one sequence (B = 1), maxval from -10000.0."""
    T, C = x.shape
    NH = heads
    if C % NH != 0:
        raise ValueError(f"width {C} is not divisible by {NH} heads")
    hs = C // NH  # head size
    scale = 1.0 / math.sqrt(hs)

    q = x @ p["Wq"] + p["bq"]
    k = x @ p["Wk"] + p["bk"]
    v = x @ p["Wv"] + p["bv"]
    out = np.zeros((T, C))

    for t in range(T):
        t2_end = t + 1 if causal else T
        for h in range(NH):
            query_t = q[t, h * hs:(h + 1) * hs]
            preatt_bth = np.zeros(T)
            att_bth = np.zeros(T)

            # pass 1: calculate query dot key and maxval
            maxval = -10000.0
            for t2 in range(t2_end):
                key_t2 = k[t2, h * hs:(h + 1) * hs]
                val = float(np.dot(query_t, key_t2)) * scale
                if val > maxval:
                    maxval = val
                preatt_bth[t2] = val

            # pass 2: calculate the exp and keep track of sum
            expsum = 0.0
            for t2 in range(t2_end):
                expv = math.exp(preatt_bth[t2] - maxval)
                expsum += expv
                att_bth[t2] = expv
            expsum_inv = 0.0 if expsum == 0.0 else 1.0 / expsum

            # pass 3: normalize to get the softmax
            for t2 in range(t2_end):
                att_bth[t2] *= expsum_inv

            # pass 4: accumulate weighted values into the output of attention
            out_bth = out[t, h * hs:(h + 1) * hs]
            for t2 in range(t2_end):
                out_bth += att_bth[t2] * v[t2, h * hs:(h + 1) * hs]

    return out @ p["Wo"] + p["bo"]
