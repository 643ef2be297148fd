"""Blind round 79 (b79_12, issue 38): softmax and self_attention ported from deepnetni/zeta
`core/try/try_mhsa.py` (nn.MultiheadAttention with a `triu(ones, 1).bool()` attn_mask).

Mistakes:
1. softmax (lines 63-65 of the file as delivered): no max subtracted: inf/nan near 1000.
2. self_attention (lines 85-86): PyTorch's boolean mask (True = blocked), `np.triu(np.ones((L,
   L)), 1).astype(bool)`, used as the positions to keep in `np.where(mask, w, -np.inf)`: only
   the future kept (the last row all -inf, so nan). Wrong with causal=True only.

Grader: at blind time (50c6c808) and now, 103/110. Mistake 1 named on stable-softmax ("exp
overflowed ... Subtract the maximum along the axis first"), mistake 2 on no-causal-mask (at blind
time "the model solution's `np.where(mask, scores, -np.inf)` is written with its condition
inverted, `np.where(~mask, scores, -np.inf)`": the cause right, said in the solution's mask's
terms; the judge notes the code has no `~`; now, report/masked_line.py: "your masking (at your
line `w = np.where(mask, w, -np.inf)`) acts as the model solution's `np.where(mask, scores,
-np.inf)` with its condition inverted, `np.where(~mask, scores, -np.inf)`"). Every mistake
named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'softmax_without_max',
          'no-causal-mask': 'op:mask_inverted:self_attention/attention:mask-inverted'}


def softmax(x, axis=-1):
    e = np.exp(x)
    return e / e.sum(axis=axis, keepdims=True)


def self_attention(x, p, heads, causal=False):
    # like nn.MultiheadAttention(embed_dim, num_heads) on one sequence
    L, E = x.shape
    if E % heads != 0:
        raise ValueError("embed_dim must be divisible by num_heads")
    hd = E // heads
    q = (x @ p["Wq"] + p["bq"]).reshape(L, heads, hd).transpose(1, 0, 2)
    k = (x @ p["Wk"] + p["bk"]).reshape(L, heads, hd).transpose(1, 0, 2)
    v = (x @ p["Wv"] + p["bv"]).reshape(L, heads, hd).transpose(1, 0, 2)
    w = q @ k.transpose(0, 2, 1) / math.sqrt(hd)
    if causal:
        mask = np.triu(np.ones((L, L)), 1).astype(bool)
        w = np.where(mask, w, -np.inf)
    w = softmax(w, axis=-1)
    out = (w @ v).transpose(1, 0, 2).reshape(L, E)
    return out @ p["Wo"] + p["bo"]
