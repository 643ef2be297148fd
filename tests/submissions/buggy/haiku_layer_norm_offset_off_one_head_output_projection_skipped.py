"""Blind round 35 (b35_01, issue 38): layer_norm and self_attention ported from
conceptofmind/ViT-haiku, vit.py (Haiku: the LayerNorm helper built with create_scale=True,
create_offset=False, and the Attention module with `project_out = not (heads == 1 and dim_head ==
dim)`, vit-pytorch's line).

Mistakes:
1. layer_norm keeps the helper's `create_offset=False`: beta is never added (gamma applied, no
   shift). Wrong whenever beta != 0.
2. self_attention skips the output projection Wo, bo when heads == 1 (`project_out` false), where
   the lecture always applies it. Wrong with one head only.

Grader: at blind time and now, both named: "the shift beta `beta` is left out of `(x - mean) /
np.sqrt(var + eps) * gamma + beta`" on layer-norm, visible and hidden; "the last step
`linear(out, p['Wo'], p['bo'])` is skipped when `heads` is 1, `out` returned as it is
(lucidrains' `project_out = not (heads == 1 and dim_head == dim)`...)" on the four failed
attention checks; vit-checkpoint observes layer_norm and self_attention. Every mistake named, so
in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:term:layer_norm:drop-beta',
          'no-causal-mask': 'op:skipped_for_one:self_attention:linear-skipped-for-heads-1',
          'multi-head-attention': 'op:skipped_for_one:self_attention:linear-skipped-for-heads-1'}


def layer_norm(x, gamma, beta, eps=1e-6):
    """hk.LayerNorm as the ViT-haiku helper builds it (create_scale=True, create_offset=False, axis=-1)."""
    create_scale, create_offset = True, False
    x = np.asarray(x, dtype=float)
    mean = np.mean(x, axis=-1, keepdims=True)
    variance = np.var(x, axis=-1, keepdims=True)
    inv = 1.0 / np.sqrt(variance + eps)
    if create_scale:
        inv = inv * gamma
    out = (x - mean) * inv
    if create_offset:
        out = out + beta
    return out


def self_attention(x, p, heads, causal=False):
    """Attention(dim, heads, dim_head) of ViT-haiku, one image (no batch axis)."""
    n, dim = x.shape
    if dim % heads:
        raise ValueError(f"width {dim} is not divisible by {heads} heads")
    dim_head = dim // heads
    inner_dim = dim_head * heads
    project_out = not (heads == 1 and dim_head == dim)
    scale = dim_head ** -0.5

    def rearrange_in(t):                      # 'n (h d) -> h n d'
        return t.reshape(n, heads, dim_head).transpose(1, 0, 2)

    qkv = (x @ p["Wq"] + p["bq"], x @ p["Wk"] + p["bk"], x @ p["Wv"] + p["bv"])
    q, k, v = map(rearrange_in, qkv)

    dots = np.einsum('hid,hjd->hij', q, k) * scale
    if causal:
        dots = np.where(np.tril(np.ones((n, n), dtype=bool)), dots, -np.inf)
    attn = softmax(dots, axis=-1)
    out = np.einsum('hij,hjd->hid', attn, v)
    out = out.transpose(1, 0, 2).reshape(n, inner_dim)   # 'h n d -> n (h d)'
    if project_out:
        out = out @ p["Wo"] + p["bo"]
    return out
