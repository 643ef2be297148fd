"""Blind round 81 (b81_13, issue 38): softmax and self_attention ported from
AlphaGPU/leetgpu-challenges `challenges/hard/53_casual_attention/challenge.py` (its reference's
`dim=1`).

Mistakes:
1. softmax (line 71 of the file as delivered): default `axis=1`: a default call is right only on
   2-D input; 3-D input is normalised over the wrong axis, 1-D input raises AxisError. An
   explicit axis= is right.
2. self_attention (line 100): `softmax(attn, axis=1)` on the (heads, T, T) scores normalises over
   the queries, not the keys: wrong for every T > 1, one head too, causal or not.

Grader: at blind time (b5c841e9) and now, 89/110. Mistake 1 named on stable-softmax ("`axis` defaults to 1 (`axis=1`
in the signature) ... the student API's default is -1"); mistake 2 named on multi-head-attention
("The softmax runs over the queries ... softmax over the last axis") and no-causal-mask ("taken
over axis -2, instead of over axis -1"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:default_flipped:softmax:axis-defaults-1',
          'no-causal-mask': 'op:axis:self_attention/attention:softmax.axis=-2',
          'multi-head-attention': 'attention_softmax_wrong_axis'}


def softmax(x, axis=1):
    x = np.asarray(x, dtype=float)
    x = x - np.max(x, axis=axis, keepdims=True)
    e = np.exp(x)
    return e / np.sum(e, axis=axis, keepdims=True)


def self_attention(x, p, heads, causal=False):
    M, D = x.shape
    if D % heads != 0:
        raise ValueError("D must be divisible by heads")
    d = D // heads
    Q = (x @ p["Wq"] + p["bq"]).reshape(M, heads, d).transpose(1, 0, 2)
    K = (x @ p["Wk"] + p["bk"]).reshape(M, heads, d).transpose(1, 0, 2)
    V = (x @ p["Wv"] + p["bv"]).reshape(M, heads, d).transpose(1, 0, 2)

    scale = d ** 0.5
    attn = np.matmul(Q, K.transpose(0, 2, 1)) / scale

    # add mask
    if causal:
        mask = np.triu(np.ones((M, M), dtype=bool), k=1)
        attn = np.where(mask, -np.inf, attn)
    attn = softmax(attn, axis=1)
    output = np.matmul(attn, V)
    return output.transpose(1, 0, 2).reshape(M, D) @ p["Wo"] + p["bo"]
