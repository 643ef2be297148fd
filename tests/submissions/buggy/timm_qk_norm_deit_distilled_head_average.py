"""Blind round 25 (b25_06, issue 38): self_attention ported from timm's `Attention` built with
`qk_norm=True` (vision_transformer.py: `q, k = self.q_norm(q), self.k_norm(k)` with
`nn.LayerNorm(head_dim)` freshly initialised, `q = q * self.scale`), and vit_forward's head from
timm's DeiT `VisionTransformerDistilled.forward_head` (`x, x_dist = x[:, 0], x[:, 1]`, `return
(x + x_dist) / 2`).

Mistakes:
1. self_attention layer-normalises each head's queries and keys over d_h (gain 1, shift 0) before
   the dot product: ViT-22B's QK-norm, a step the lecture's attention does not have.
2. vit_forward averages the head applied to row 0 ([CLS]) and to row 1 (DeiT's distillation
   token; here the first patch) instead of reading row 0 alone.

Grader: at blind time the head was named ("`x[0]` is read as `x[0:2].mean(axis=0)`") on
vit-forward and the QK-norm was not: the causal checks observed "only in 1 of 4 rows (row 0)", and
the multi-head-attention checks failed with no hint at all. Now both named: `q` and `k`
standardised over the last axis before `q @ k.swapaxes(-1, -2)` ("as ViT-22B's and timm's
qk_norm", since f70bb48, norms.operands_standardised) on no-causal-mask and multi-head-attention,
and the head on vit-forward; vit-checkpoint observes the broken functions. Every mistake named, so
in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:operands_standardised:self_attention/attention:q-k-standardised',
          'multi-head-attention': 'op:operands_standardised:self_attention/attention:q-k-standardised',
          'vit-forward': 'op:pool:vit_forward:x[0]-mean-with-next'}


def self_attention(x, p, heads, causal=False):
    """timm Attention(dim, num_heads=heads, qkv_bias=True, qk_norm=True)."""
    N, C = x.shape
    if C % heads:
        raise ValueError(f"width {C} is not divisible by {heads} heads")
    head_dim = C // heads
    scale = head_dim ** -0.5
    qkv = np.stack([x @ p["Wq"] + p["bq"], x @ p["Wk"] + p["bk"], x @ p["Wv"] + p["bv"]])
    qkv = qkv.reshape(3, N, heads, head_dim).transpose(0, 2, 1, 3)   # (3, heads, N, head_dim)
    q, k, v = qkv[0], qkv[1], qkv[2]
    ones, zeros = np.ones(head_dim), np.zeros(head_dim)

    def q_norm(t):
        return layer_norm(t, ones, zeros)

    def k_norm(t):
        return layer_norm(t, ones, zeros)

    q, k = q_norm(q), k_norm(k)
    q = q * scale
    attn = q @ k.transpose(0, 2, 1)
    if causal:
        attn = np.where(np.tril(np.ones((N, N), dtype=bool)), attn, -np.inf)
    attn = softmax(attn, axis=-1)
    x = attn @ v
    x = x.transpose(1, 0, 2).reshape(N, C)
    return x @ p["Wo"] + p["bo"]


def vit_forward(image, params):
    """forward_features, then DeiT's forward_head (mean of the two token heads)."""
    x = embed_image(image, params)
    for block in params["blocks"]:
        x = encoder_block(x, block, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    x, x_dist = x[0], x[1]
    logits = x @ params["W_head"] + params["b_head"]
    logits_dist = x_dist @ params["W_head"] + params["b_head"]
    return (logits + logits_dist) / 2
