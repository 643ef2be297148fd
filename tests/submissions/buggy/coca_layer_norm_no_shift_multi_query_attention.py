"""Blind round 24 (b24_09, issue 38): layer_norm and self_attention ported from lucidrains'
CoCa-pytorch (LayerNorm with a learned gamma and beta a zero buffer; multi-query attention, one key
and value head shared by every query head).

Mistakes:
1. layer_norm leaves beta out.
2. self_attention projects one key head and one value head, `x @ p["Wk"][:, :d_h]` (and Wv), and
   shares them across all the query heads (right with one head).

Grader: at blind time beta was named and the multi-query attention only observed ("right with one
head, wrong with heads=2"); now both named: the shift beta left out on layer-norm, and every chunk
of the key and value split given the first chunk's values (as multi-query attention shares one key
and value head, 2 mistakes at once, since 52f7c42) on no-causal-mask and multi-head-attention;
vit-checkpoint observes the broken functions. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:term:layer_norm:drop-beta',
          'no-causal-mask': 'op:chunk_shared:self_attention/split_heads.2:heads-chunk-0-shared+op:chunk_shared:self_attention/split_heads.3:heads-chunk-0-shared',
          'multi-head-attention': 'op:chunk_shared:self_attention/split_heads.2:heads-chunk-0-shared+op:chunk_shared:self_attention/split_heads.3:heads-chunk-0-shared'}


def layer_norm(x, gamma, beta, eps=1e-6):
    """CoCa LayerNorm: learned gamma, beta is a zero buffer."""
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma


def self_attention(x, p, heads, causal=False):
    n, dim = x.shape
    if dim % heads:
        raise ValueError(f"width {dim} is not divisible by {heads} heads")
    dim_head = dim // heads
    scale = dim_head ** -0.5
    q = x @ p["Wq"] + p["bq"]
    q = q.reshape(n, heads, dim_head).transpose(1, 0, 2) * scale      # 'b n (h d) -> b h n d'
    k = x @ p["Wk"][:, :dim_head] + p["bk"][:dim_head]                # one key head
    v = x @ p["Wv"][:, :dim_head] + p["bv"][:dim_head]                # one value head
    sim = np.einsum("hid,jd->hij", q, k)
    if causal:
        causal_mask = np.triu(np.ones((n, n), dtype=bool), 1)
        sim = np.where(causal_mask, -np.finfo(sim.dtype).max, sim)
    attn = softmax(sim, axis=-1)
    out = np.einsum("hij,jd->hid", attn, v)
    out = out.transpose(1, 0, 2).reshape(n, dim)
    return out @ p["Wo"] + p["bo"]
