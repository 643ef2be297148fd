"""Blind round 64 (b64_08, issue 38): self_attention ported from chengchingwen/NeuralAttentionlib.jl
`test/old_impl/mh_atten.jl` (Flux MultiheadAttention, features-by-tokens layout).

Mistakes:
9. self_attention (lines 162-164, and the merge): Julia's column-major `permutedims(reshape(ipq,
   hs, head, :), [1, 3, 2])` as a C-order `ipq.reshape(hs, heads, T)` of the (d, T) array: head h
   gets the features h, h + heads, ... Shows only with heads > 1.
10. self_attention (lines 170-172): the scores turned to numpy's (q, k) layout, the mask kept as
    Julia's `batched_triu!(mask, 0)`, written for (k, q) scores: each query sees itself and the
    later tokens. Shows only with causal=True.

Grader: at blind time (0cd43d22) 96/110, the strided split named on multi-head-attention, the
mask only observed on no-causal-mask's two causal checks (the upside-down mask existed as a
listed variant only, which matched the one-head case alone, and no rewrite of the error model
turned the triangle, so its pair search had nothing to pair with the split). Now both named
there, as a pair of the error model's (masks.triangle_turned with the interleaved split); since
session 32 the visible causal check names them as the pair of its listed variants that fits
every call (kinds/mistakes.py, `widened`: "2 mistakes at once: (1) Your mask is upside down ...
(2) Your heads take interleaved columns"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {
    'multi-head-attention':
        'op:heads_interleaved:self_attention:heads-interleaved-split-and-merge',
    'no-causal-mask': 'op:heads_interleaved:self_attention:heads-interleaved-split-and-merge'
                      '+op:triangle_turned:self_attention/causal_mask:tri-turned'}
ALIASES = ('attention_mask_transposed', 'attention_heads_interleaved')  # the listed variants


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d) (section 3 step 5; Practice 6).

    Flux layout: ipq = iqproj(query) is (h, seq_len); hq = permutedims(reshape(ipq, hs, head, :),
    [1, 3, 2]) is (hs, seq_len, head). future=true is the default (no mask).
    """
    x = np.asarray(x, dtype=float)
    T, d = x.shape
    if d % heads != 0:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    h = d
    hs = h // heads
    ipq = (x @ p["Wq"] + p["bq"]).T          # (h, seq_len)
    ipk = (x @ p["Wk"] + p["bk"]).T
    ipv = (x @ p["Wv"] + p["bv"]).T

    # size(hq) == (hs, seq_len, head)
    hq = ipq.reshape(hs, heads, T).transpose(0, 2, 1)
    hk = ipk.reshape(hs, heads, T).transpose(0, 2, 1)
    hv = ipv.reshape(hs, heads, T).transpose(0, 2, 1)

    future = not causal
    atten = np.empty((hs, T, heads))
    for i in range(heads):
        q, k, v = hq[:, :, i], hk[:, :, i], hv[:, :, i]
        score = (q.T @ k) / math.sqrt(hs)                # (q_seq_len, k_seq_len)
        if not future:
            mask = np.triu(np.ones((T, T)))              # batched_triu!(mask, 0)
            score = score + (1 - mask) * -1e9
        score = softmax(score, axis=-1)
        atten[:, :, i] = (score @ v.T).T                 # (hs, q_seq_len)

    # size(atten) == (head*hs, seq_len)
    atten = atten.transpose(0, 2, 1).reshape(h, T)
    return atten.T @ p["Wo"] + p["bo"]
