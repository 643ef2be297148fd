"""Blind round 3 (b3_02, issue 38), a port with three mistakes in lucidrains/vit-pytorch style:
self_attention splits the heads as einops 'n (d h) -> h n d' (t.reshape(n, d_h, heads)) instead
of 'n (h d) -> h n d', so head h takes the strided columns h, h + heads, ... (right with
heads=1); layer_norm takes the mean and the variance over axis=1 instead of the last axis (right
for (T, d) tokens, wrong for batched (B, T, d) input, and a 1-D input raises); vit_forward pools
by the mean over all tokens (pool='mean') instead of reading the [CLS] row.
(The submission's module-level helpers are nested in the function that uses them
here: a fixture replaces only the solution's names.)
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:axis:layer_norm:mean.axis=1+op:axis:layer_norm:var.axis=1',
          'no-causal-mask': 'op:split:self_attention/split_heads*:reshape-split-interleaved',
          'multi-head-attention': 'op:split:self_attention/split_heads*:reshape-split-interleaved',
          'vit-forward': 'vit_mean_pool_all_tokens'}


def layer_norm(x, gamma, beta, eps=1e-6):
    """nn.LayerNorm(dim) by hand for (n, dim) tokens."""
    mu = x.mean(axis=1, keepdims=True)
    sigma2 = ((x - mu) ** 2).mean(axis=1, keepdims=True)
    return gamma * (x - mu) / np.sqrt(sigma2 + eps) + beta


def self_attention(x, p, heads, causal=False):
    """Attention from vit-pytorch: to_qkv, split heads, einsum dots, softmax, merge, to_out."""
    def _to_heads(t, h):
        """einops.rearrange(t, 'n (d h) -> h n d', h=h)."""
        n, dim = t.shape
        return t.reshape(n, dim // h, h).transpose(2, 0, 1)

    n, dim = x.shape
    if dim % heads:
        raise ValueError(f"dim {dim} must be divisible by heads {heads}")
    dim_head = dim // heads
    q, k, v = (_to_heads(x @ p[w] + p[b], heads)
               for w, b in (("Wq", "bq"), ("Wk", "bk"), ("Wv", "bv")))
    dots = np.einsum("hid,hjd->hij", q, k) * dim_head ** -0.5
    if causal:
        mask = np.triu(np.ones((n, n), dtype=bool), k=1)
        dots = np.where(mask, -np.finfo(dots.dtype).max, dots)
    attn = softmax(dots, axis=-1)
    out = np.einsum("hij,hjd->hid", attn, v)
    out = out.transpose(1, 0, 2).reshape(n, dim)       # 'h n d -> n (h d)'
    return out @ p["Wo"] + p["bo"]


def vit_forward(image, params):
    """ViT(pool='mean'): embed, transformer, norm, pool, head."""
    x = embed_image(image, params)
    for blk in params["blocks"]:
        x = encoder_block(x, blk, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    x = x.mean(axis=0)
    return x @ params["W_head"] + params["b_head"]
