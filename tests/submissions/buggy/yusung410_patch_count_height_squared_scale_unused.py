"""Blind round 36 (b36_04, issue 38): num_patches and self_attention ported from
yusung410/Vision-Transformer-Challenge, vit/patch_embed.py (EmbeddingLayer: num_tokens =
(img_size // patch_size) ** 2) and vit/msa.py (MSA: a fused qkv, self.scale defined, never used).

Mistakes:
1. num_patches squares H // P: right for square images only.
2. self_attention never scales the scores (self.scale = head_dim ** -0.5 is unused).

Grader: at blind time (9ebbf4a) and now, both named: "`W // P` reads `H`" on patch-count,
"The scores are not scaled" on no-causal-mask and multi-head-attention. In buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:sibling:num_patches:W-as-H', 'no-causal-mask': 'attention_no_scale',
          'multi-head-attention': 'attention_no_scale'}


def num_patches(H, W, P):
    """N as EmbeddingLayer counts it: (img_size // patch_size) ** 2."""
    if P <= 0 or H % P != 0 or W % P != 0:
        raise ValueError(f"patch size {P} does not tile a {H}x{W} image")
    img_size, patch_size = H, P
    num_tokens = (img_size // patch_size) ** 2  # N
    return num_tokens


def self_attention(x, p, heads, causal=False):
    """MSA.forward for one sequence: one qkv projection, split into heads."""
    N, C = x.shape
    if C % heads != 0:
        raise ValueError("dim must be divisible by num_heads")
    num_heads = heads
    head_dim = C // num_heads
    scale = head_dim ** -0.5

    qkv_w = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1)
    qkv_b = np.concatenate([p["bq"], p["bk"], p["bv"]])
    qkv = (x @ qkv_w + qkv_b).reshape(N, 3, num_heads, C // num_heads).transpose(1, 2, 0, 3)
    q, k, v = qkv[0], qkv[1], qkv[2]
    attn = q @ k.transpose(0, 2, 1)
    if causal:
        attn = np.where(np.tril(np.ones((N, N), dtype=bool)), attn, -np.inf)
    attn = softmax(attn, axis=-1)
    x = (attn @ v).transpose(1, 0, 2).reshape(N, C)
    x = x @ p["Wo"] + p["bo"]
    return x
