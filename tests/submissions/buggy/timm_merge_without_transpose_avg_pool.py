"""Lab 4 submission in the style of timm's vision_transformer.py (fused qkv, global_pool).

Mistakes (2):
- self_attention merges the heads with (attn @ v).reshape(T, d) straight from (heads, T, d_h),
  forgetting timm's .transpose(1, 2) first: rows get mixed across tokens. Only with >1 head.
- vit_forward pools with the mean over all tokens (timm's global_pool='avg') instead of
  taking the [CLS] row.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed', 'vit-forward': 'vit_mean_pool_all_tokens'}
ALIASES = ('attention_not_equivariant',)  # the permutation property's verdict on the merge


def self_attention(x, p, heads, causal=False):
    """timm Attention.forward for one image: (N, C) -> (N, C)."""
    N, C = x.shape
    if C % heads:
        raise ValueError(f"dim {C} should be divisible by num_heads {heads}")
    head_dim = C // heads
    scale = head_dim ** -0.5
    qkv_w = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1)   # (C, 3C)
    qkv_b = np.concatenate([p["bq"], p["bk"], p["bv"]])
    qkv = (x @ qkv_w + qkv_b).reshape(N, 3, heads, head_dim).transpose(1, 2, 0, 3)
    q, k, v = qkv[0], qkv[1], qkv[2]                              # (heads, N, head_dim)
    q = q * scale
    attn = q @ k.transpose(0, 2, 1)
    if causal:
        attn = attn + np.triu(np.full((N, N), -np.inf), k=1)
    attn = softmax(attn, axis=-1)
    x = (attn @ v).reshape(N, C)
    x = x @ p["Wo"] + p["bo"]
    return x


def vit_forward(image, params):
    """forward_features then forward_head (timm), for one image."""
    x = embed_image(image, params)
    for blk in params["blocks"]:
        x = encoder_block(x, blk, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    # forward_head: global_pool
    x = x.mean(axis=0)
    return x @ params["W_head"] + params["b_head"]
