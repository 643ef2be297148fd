"""Blind round 7 (b7_11, issue 38): self_attention that merges heads as 'h n d -> n (d h)', and
attention_scores that adds [CLS] again.

Mistakes:
1. self_attention: heads merged as 'h n d -> n (d h)' (out.transpose(1, 2, 0)) instead of 'h n d
   -> n (h d)', so the head outputs are interleaved column by column before Wo. Shows only with
   heads > 1.
2. attention_scores: (num_tokens + 1) ** 2, adding [CLS] again although num_tokens already
   counts it. Shows always.

Grader: attention_scores named ("`(T + 1) * (T + 1)` ... is something counted twice?"). The
merge is named too (its last two axes merged the other way round, einops' `(d h)`).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'attention-cost': 'op:count:attention_scores:T-plus-1',
          'no-causal-mask': 'op:merge:self_attention/merge_heads:merged-the-other-way',
          'multi-head-attention': 'op:merge:self_attention/merge_heads:merged-the-other-way'}


def attention_scores(num_tokens):
    seq = num_tokens + 1          # + [CLS]
    return seq * seq


def self_attention(x, p, heads, causal=False):
    n, dim = x.shape
    if dim % heads:
        raise ValueError(f"{dim} is not divisible by {heads}")
    dh = dim // heads

    def to_heads(t):                                   # 'n (h d) -> h n d'
        return t.reshape(n, heads, dh).transpose(1, 0, 2)

    q = to_heads(x @ p["Wq"] + p["bq"])
    k = to_heads(x @ p["Wk"] + p["bk"])
    v = to_heads(x @ p["Wv"] + p["bv"])
    sim = np.einsum("hid,hjd->hij", q, k) / np.sqrt(dh)
    if causal:
        sim = np.where(np.triu(np.ones((n, n), dtype=bool), 1), -np.inf, sim)
    attn = softmax(sim, axis=-1)
    out = np.einsum("hij,hjd->hid", attn, v)
    out = out.transpose(1, 2, 0).reshape(n, dim)       # 'h n d -> n (d h)'
    return out @ p["Wo"] + p["bo"]
