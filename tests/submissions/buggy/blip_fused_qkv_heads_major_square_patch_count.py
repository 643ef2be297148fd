"""Blind round 23 (b23_10, issue 38): num_patches and self_attention ported from Salesforce's BLIP
vision tower (salesforce/BLIP, models/vit.py: PatchEmbed's `(img_size // patch_size) *
(img_size // patch_size)` for a square img_size, a fused qkv Linear reshaped `(B, N, 3,
num_heads, C // num_heads).permute(2, 0, 3, 1, 4)`, `attn = (q @ k.transpose(-2, -1)) *
self.scale`).

Mistakes:
1. self_attention reshapes the fused qkv output as (N, heads, 3, head_dim) instead of
   (N, 3, heads, head_dim) before splitting q, k, v: the same with one head, wrong with several.
2. num_patches keeps BLIP's square count, (W // P) * (W // P): wrong on non-square images.

Grader: at blind time and now, both named: the fused product split per token as (heads, 3, d_h)
where its columns are (3, heads, d_h) on no-causal-mask and multi-head-attention, and `H // P`
reading `W`, a copy of its sibling term, on patch-count; vit-checkpoint observes the broken
self_attention. The student's patchify, correct, checks the tiling itself without calling
num_patches, so the checkpoint's pipeline never runs the broken count: it is kept here (CORRECT)
so that vit-checkpoint blames self_attention alone, as it did on the whole file. Every mistake
named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:fused:self_attention:qkv-fused-heads-major',
          'multi-head-attention': 'op:fused:self_attention:qkv-fused-heads-major',
          'patch-count': 'op:sibling:num_patches:H-as-W'}
CORRECT = ('patchify',)  # its own tiling check, without num_patches: keeps every point


def num_patches(H, W, P):
    if P <= 0 or H % P != 0 or W % P != 0:
        raise ValueError("img_size must be divisible by patch_size")
    return (W // P) * (W // P)


def patchify(image, P):
    x = np.asarray(image)
    if x.ndim == 2:
        x = x[:, :, None]
    if x.ndim != 3:
        raise ValueError("expected HW or HWC")
    H, W, C = x.shape
    if P <= 0 or H % P or W % P:
        raise ValueError("img_size must be divisible by patch_size")
    x = x.reshape(H // P, P, W // P, P, C).transpose(0, 2, 1, 3, 4)
    return x.reshape(-1, P * P * C)


def self_attention(x, p, heads, causal=False):
    N, C = x.shape
    if C % heads:
        raise ValueError("dim should be divisible by num_heads")
    head_dim = C // heads
    scale = head_dim ** -0.5
    w_qkv = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1)
    b_qkv = np.concatenate([p["bq"], p["bk"], p["bv"]])
    qkv = (x @ w_qkv + b_qkv).reshape(N, heads, 3, head_dim).transpose(2, 1, 0, 3)
    q, k, v = qkv[0], qkv[1], qkv[2]
    attn = (q @ k.transpose(0, 2, 1)) * scale
    if causal:
        attn = np.where(np.tril(np.ones((N, N), dtype=bool)), attn, -np.inf)
    attn = softmax(attn, axis=-1)
    x = (attn @ v).transpose(1, 0, 2).reshape(N, C)
    return x @ p["Wo"] + p["bo"]
