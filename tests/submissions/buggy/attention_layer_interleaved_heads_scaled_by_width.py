"""Blind round 39 (b39_14, issue 38): self_attention ported from AttentionLayer in a PyTorch
transformer module (code-search file id 16235981182: to_qkv(x).chunk(3), einops heads, einsum
scores, att_mask added).

Mistakes (both in self_attention, both shown only with several heads):
1. The heads are split with rearrange 'b n (d h) -> b h n d' (head = interleaved columns h,
   h + heads, ...) but merged with 'b h n d -> b n (h d)' (the API: head h uses the contiguous
   columns h*d_h:(h+1)*d_h).
2. `q = q / math.sqrt(d)` with d the full width: 1/sqrt(d), not 1/sqrt(d_h).

Grader: at blind time (b589706) and now, named in one "2 mistakes at once" on the causal,
several-heads and both hidden checks: "the scores are divided by sqrt(d) (at your line `q = q /
math.sqrt(d)`), the model width, instead of sqrt(d_h)" and "`x.reshape(*lead, T, heads, d // heads)`
splits its last axis the other way round ... (interleaved)"; the one-head checks pass;
vit-checkpoint observes the broken self_attention. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(d)+op:split:self_attention/split_heads*:reshape-split-interleaved',
          'multi-head-attention': 'op:constant:self_attention/attention:scale=sqrt(d)+op:split:self_attention/split_heads*:reshape-split-interleaved'}


def self_attention(x, p, heads, causal=False):
    """AttentionLayer.forward for one sequence, with the course's projections and output map."""
    n, d = x.shape
    h = heads
    if d % h:
        raise ValueError(f"dim {d} is not divisible by {h} heads")
    qkv = (x @ p["Wq"] + p["bq"], x @ p["Wk"] + p["bk"], x @ p["Wv"] + p["bv"])
    # rearrange(t, 'b n (d h) -> b h n d', h=h)
    q, k, v = map(lambda t: t.reshape(n, d // h, h).transpose(2, 0, 1), qkv)
    q = q / math.sqrt(d)
    dots = np.einsum('hid,hjd->hij', q, k)
    if causal:
        att_mask = np.triu(np.full((n, n), -np.inf), 1)
        dots = dots + att_mask
    attn = softmax(dots, axis=-1)
    out = np.einsum('hij,hjd->hid', attn, v)
    # rearrange(out, 'b h n d -> b n (h d)')
    out = out.transpose(1, 0, 2).reshape(n, d)
    return out @ p["Wo"] + p["bo"]
