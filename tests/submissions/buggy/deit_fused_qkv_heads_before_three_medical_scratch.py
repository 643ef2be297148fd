"""Blind round 17 (b17_02, issue 38): self_attention ported from DeiT / timm's Attention (one fused
qkv projection, `np.concatenate([Wq, Wk, Wv], axis=1)`), and DeiT's "train from scratch" answer.

Mistakes:
1. self_attention reshapes the fused qkv output as (N, heads, 3, d_h) (GPT-NeoX's layout) instead
   of timm's (N, 3, heads, d_h): with several heads q, k and v each take columns of all three
   projections (shows only with several heads).
2. ANSWERS["medical"] = "scratch" instead of "pretrained".

Grader: at blind time and now, both named (the fused product split per token as (heads, 3, d_h);
the medical answer's own feedback). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:fused:self_attention:qkv-fused-heads-major',
          'no-causal-mask': 'op:fused:self_attention:qkv-fused-heads-major',
          'pretrained-or-scratch': 'medical:scratch'}


def self_attention(x, p, heads, causal=False):
    """DeiT / timm Attention: one fused qkv projection, split into heads, attend, proj."""
    N, C = x.shape
    num_heads = heads
    if C % num_heads != 0:
        raise ValueError("dim should be divisible by num_heads")
    head_dim = C // num_heads
    scale = head_dim ** -0.5
    qkv_weight = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1)   # (C, 3C)
    qkv_bias = np.concatenate([p["bq"], p["bk"], p["bv"]])
    qkv = (x @ qkv_weight + qkv_bias).reshape(N, num_heads, 3, head_dim).transpose(2, 1, 0, 3)
    q, k, v = qkv[0], qkv[1], qkv[2]                                  # (num_heads, N, head_dim)
    attn = (q * scale) @ k.swapaxes(-2, -1)
    if causal:
        attn = np.where(np.tril(np.ones((N, N))) == 1, attn, -np.inf)
    attn = softmax(attn, axis=-1)
    x = (attn @ v).swapaxes(0, 1).reshape(N, C)
    x = x @ p["Wo"] + p["bo"]   # proj
    return x


ANSWERS["medical"] = "scratch"
