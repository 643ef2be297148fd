"""Blind round 5 (b5_02, issue 38): self_attention written like timm's Attention (one fused qkv
projection, reshape then permute), softmax written the textbook way.

Mistakes:
1. self_attention: timm does qkv.reshape(B, N, 3, num_heads, head_dim); this port reshapes to
   (T, 3, d_h, heads) and then moves the heads axis forward, so head h takes columns
   h, h + heads, h + 2*heads, ... (strided, interleaved) instead of the contiguous block
   h*d_h:(h+1)*d_h. Shows only with several heads (heads=1 is right).
2. softmax: no max subtraction, np.exp(x) / np.exp(x).sum(axis, keepdims=True). Right for small
   inputs; overflows to nan for inputs near 1000 (and is nan wherever exp overflows).

Grader: Both are named; the interleaved split in the words of the reference's split_heads.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'softmax_without_max',
          'no-causal-mask': 'op:split:self_attention/split_heads*:reshape-split-interleaved',
          'multi-head-attention': 'op:split:self_attention/split_heads*:reshape-split-interleaved'}


def softmax(x, axis=-1):
    """exp(x) normalised along axis."""
    e = np.exp(x)
    return e / e.sum(axis=axis, keepdims=True)


def self_attention(x, p, heads, causal=False):
    """timm-style multi-head attention on one sequence (T, d)."""
    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    head_dim = d // heads
    scale = head_dim ** -0.5
    qkv_w = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1)        # (d, 3d)
    qkv_b = np.concatenate([p["bq"], p["bk"], p["bv"]])
    qkv = (x @ qkv_w + qkv_b).reshape(T, 3, head_dim, heads).transpose(1, 3, 0, 2)  # (3, heads, T, d_h)
    q, k, v = qkv[0], qkv[1], qkv[2]
    attn = (q * scale) @ k.transpose(0, 2, 1)
    if causal:
        attn = np.where(np.tril(np.ones((T, T), dtype=bool)), attn, -np.inf)
    attn = softmax(attn, axis=-1)
    out = (attn @ v).transpose(1, 0, 2).reshape(T, d)
    return out @ p["Wo"] + p["bo"]
