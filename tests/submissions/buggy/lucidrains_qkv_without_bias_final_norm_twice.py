"""Blind round 7 (b7_03, issue 38): self_attention after lucidrains/vit-pytorch (to_qkv with
bias=False), and vit_forward with the final LayerNorm of both vit-pytorch versions
(Transformer.norm and mlp_head's LayerNorm).

Mistakes:
1. self_attention: no q/k/v biases: vit-pytorch's `to_qkv = nn.Linear(dim, inner_dim * 3,
   bias=False)`, so bq, bk, bv are never added. Shows whenever bq or bv != 0 (bk alone would not
   change the softmax).
2. vit_forward: the final LayerNorm is applied twice to [CLS]: once as the transformer's final
   norm (newer vit-pytorch `Transformer.norm`) and again as the head's LayerNorm (older
   vit-pytorch `mlp_head = Sequential(LayerNorm, Linear)`). Shows always (unless ln_g = 1, ln_b
   = 0).

Grader: the missing biases are named ("the bias `b` is left out of `x @ W + b`" for Wq and Wv;
bk alone changes nothing). The double LayerNorm is named too (the step applied twice).
Since round 36 (issue 38) the attention's biases are named as one slip: "q, k and v are
projected without their biases" (op:qkv_bias_free), where a pair named bq's and bv's.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:qkv_bias_free:self_attention:qkv-without-bias',
          'multi-head-attention': 'op:qkv_bias_free:self_attention:qkv-without-bias',
          'vit-forward': 'op:twice:vit_forward:layer_norm-twice'}


def self_attention(x, p, heads, causal=False):
    n, dim = x.shape
    if dim % heads:
        raise ValueError(f"dim {dim} must be divisible by heads {heads}")
    dim_head = dim // heads
    scale = dim_head ** -0.5
    # to_qkv = nn.Linear(dim, inner_dim * 3, bias = False)
    q, k, v = (np.moveaxis((x @ p[w]).reshape(n, heads, dim_head), 1, 0)
               for w in ("Wq", "Wk", "Wv"))
    dots = np.einsum("hid,hjd->hij", q, k) * scale
    if causal:
        i, j = np.indices((n, n))
        dots = np.where(j > i, -np.finfo(dots.dtype).max, dots)
    attn = softmax(dots, axis=-1)
    out = np.einsum("hij,hjd->hid", attn, v)
    out = np.moveaxis(out, 0, 1).reshape(n, dim)          # 'b h n d -> b n (h d)'
    return out @ p["Wo"] + p["bo"]


def vit_forward(image, params):
    x = embed_image(image, params)
    for blk in params["blocks"]:
        x = encoder_block(x, blk, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])        # Transformer.norm
    cls = x[0]                                              # pool = 'cls'
    cls = layer_norm(cls, params["ln_g"], params["ln_b"])    # mlp_head = LayerNorm + Linear
    return cls @ params["W_head"] + params["b_head"]
