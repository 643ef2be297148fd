"""Blind round 9 (b9_01, issue 38): a submission ported from lucidrains/vit-pytorch (einops style,
in numpy).

Mistakes:
1. self_attention: scores scaled by dim ** -0.5 (the full width d) instead of dim_head ** -0.5.
   Shows only with several heads (heads=1 gives d_h = d).
   Sources: lucidrains/vit-pytorch issue #65 "doubt about scale in Attention"
   (https://github.com/lucidrains/vit-pytorch/issues/65, fixed in commit 85314cf);
   karpathy/ng-video-lecture PR #6 "We should scale attention by head size";
   aladdinpersson/Machine-Learning-Collection PR #159.
2. vit_forward: pool='mean' (vit-pytorch's option, x.mean(dim=1)) instead of the [CLS] row.
   Shows on every input.
   Sources: lucidrains/vit-pytorch vit.py `x = x.mean(dim = 1) if self.pool == 'mean' else x[:, 0]`;
   lucidrains/vit-pytorch PR #274 (final LayerNorm vs mean pooling).

Grader: both named: attention_scale_d ("You scaled by 1/sqrt(d), the model width"; no-causal-mask's
causal cases name it as op:constant scale=sqrt(d)) and vit_mean_pool_all_tokens ("You averaged
every token").
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'attention_scale_d',
          'vit-forward': 'vit_mean_pool_all_tokens'}


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d), vit-pytorch's Attention module."""
    n, dim = x.shape
    if dim % heads:
        raise ValueError(f"width {dim} is not divisible by {heads} heads")
    dim_head = dim // heads
    scale = dim ** -0.5                                    # self.scale
    q, k, v = (x @ p[f"W{c}"] + p[f"b{c}"] for c in "qkv")                     # to_qkv(x).chunk(3)
    q, k, v = (t.reshape(n, heads, dim_head).transpose(1, 0, 2) for t in (q, k, v))  # 'n (h d) -> h n d'
    dots = np.einsum("hid,hjd->hij", q, k) * scale
    if causal:
        mask = np.triu(np.ones((n, n), dtype=bool), 1)
        dots = np.where(mask, -np.inf, dots)
    attn = softmax(dots, axis=-1)
    out = np.einsum("hij,hjd->hid", attn, v)
    out = out.transpose(1, 0, 2).reshape(n, dim)           # 'h n d -> n (h d)'
    return out @ p["Wo"] + p["bo"]                         # to_out


def vit_forward(image, params, pool="mean"):
    """Logits (num_classes,) of one image, vit-pytorch's ViT.forward."""
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    x = x.mean(axis=0) if pool == "mean" else x[0]
    return x @ params["W_head"] + params["b_head"]        # mlp_head
