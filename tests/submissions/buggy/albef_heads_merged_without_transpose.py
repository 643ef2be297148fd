"""Blind round 58 (b58_08, issue 38): self_attention ported from salesforce/ALBEF `models/vit.py`
(Attention.forward's `(attn @ v).transpose(1, 2).reshape(B, N, C)`, with the batch axis dropped
and the transpose with it).

Mistakes:
13. self_attention (line 97 of the file as delivered) merges the heads with
    `(attn @ v).reshape(N, C)` from `(heads, N, hd)`, without the transpose back to
    `(N, heads, hd)`. Wrong only with heads > 1 (causal or not).

Grader: at blind time (ba46f523) and now, 95/110, named. Mistake 13 on multi-head-attention's two
checks and no-causal-mask's causal checks ("In `self_attention`, the heads' outputs are merged by
a reshape without moving the head axis back first: the (heads, T, d_h) array must become (T,
heads, d_h) before it is reshaped to (T, d) ..."); why-positions' checklist says self_attention
depends on row order (true of it); vit-checkpoint observes self_attention. Every mistake named, so
in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed',
          'multi-head-attention': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed'}
ALIASES = ('attention_not_equivariant',)  # why-positions' checklist for the merge


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d)."""
    N, C = x.shape
    num_heads = heads
    if C % num_heads:
        raise ValueError("dim must be divisible by num_heads")
    head_dim = C // num_heads
    scale = head_dim ** -0.5
    q = (x @ p["Wq"] + p["bq"]).reshape(N, num_heads, head_dim).transpose(1, 0, 2)
    k = (x @ p["Wk"] + p["bk"]).reshape(N, num_heads, head_dim).transpose(1, 0, 2)
    v = (x @ p["Wv"] + p["bv"]).reshape(N, num_heads, head_dim).transpose(1, 0, 2)
    attn = (q @ k.transpose(0, 2, 1)) * scale
    if causal:
        attn = np.where(np.triu(np.ones((N, N), dtype=bool), 1), -np.inf, attn)
    attn = softmax(attn, axis=-1)
    x = (attn @ v).reshape(N, C)
    x = x @ p["Wo"] + p["bo"]
    return x
