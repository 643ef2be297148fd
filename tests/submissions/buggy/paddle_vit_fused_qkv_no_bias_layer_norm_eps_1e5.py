"""Blind round 38 (b38_02, issue 38): layer_norm, self_attention, encoder_block and vit_forward
ported from jayphone17/ViT-Related (PaddlePaddle: Attention.py with `qkv_bias=False`,
Basic_Module.py's Block, MLP.py, The_Structure_of_a_ViT.py's VisionTransformer, `epsilon=1e-5`).

Mistakes:
1. `self_attention` projects q, k, v with one fused matrix Wq|Wk|Wv and no bias (the source's
   `self.qkv = nn.Linear(dim, dim * 3, bias_attr=qkv_bias)` with qkv_bias=False): bq, bk, bv
   dropped (bo kept). Wrong whenever bq or bv is nonzero.
2. `layer_norm`'s default eps is 1e-5 (Paddle's `epsilon=1e-5`) where the lecture's is 1e-6.
   Shows on tokens of tiny variance.
(encoder_block and vit_forward are ported in the source's style and right.)

Grader: at blind time (60400f1) and now, both named: "In `self_attention`, q, k and v are
projected without their biases ..." on no-causal-mask and multi-head-attention (the hint writes
three products where the code has one fused product: the same values); "In `layer_norm`, eps is
1e-05; the lecture's is 1e-06." on layer-norm; vit-checkpoint observes layer_norm and
self_attention. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:constant:layer_norm:eps=1e-05',
          'no-causal-mask': 'op:qkv_bias_free:self_attention:qkv-without-bias',
          'multi-head-attention': 'op:qkv_bias_free:self_attention:qkv-without-bias'}
CORRECT = ('encoder_block', 'vit_forward')


def layer_norm(x, gamma, beta, eps=1e-5):
    """nn.LayerNorm(dim, epsilon=epsilon) over the last axis (epsilon=1e-5 as in Block / VisionTransformer)."""
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


def self_attention(x, p, heads, causal=False):
    """Attention.forward (qkv_bias=False, qk_scale=None), one image: x is (N, C)."""
    N, C = x.shape
    num_heads = heads
    if C % num_heads != 0:
        raise ValueError(f"dim {C} is not divisible by num_heads {num_heads}")
    head_dim = C // num_heads
    scale = head_dim ** -0.5
    # self.qkv = nn.Linear(dim, dim * 3, bias_attr=qkv_bias)
    qkv_weight = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1)
    qkv = (x @ qkv_weight).reshape((N, 3, num_heads, C // num_heads)).transpose((1, 2, 0, 3))
    # split query key value
    q, k, v = qkv[0], qkv[1], qkv[2]
    # Scaled Dot-Product Attention: Matmul + Scale
    attn = (q @ k.transpose((0, 2, 1))) * scale
    if causal:
        attn = np.where(np.tril(np.ones((N, N), dtype=bool)), attn, -np.inf)
    attn = softmax(attn, axis=-1)
    x = (attn @ v).transpose((1, 0, 2)).reshape((N, C))
    # self.proj
    x = x @ p["Wo"] + p["bo"]
    return x


def encoder_block(x, p, heads):
    """Block.forward: x + attn(norm1(x)), then x + mlp(norm2(x)); Mlp is fc1 -> GELU -> fc2."""
    def mlp(x):
        x = x @ p["W1"] + p["b1"]   # fc1
        x = gelu(x)                 # act
        x = x @ p["W2"] + p["b2"]   # fc2
        return x
    x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    x = x + mlp(layer_norm(x, p["ln2_g"], p["ln2_b"]))
    return x


def vit_forward(image, params):
    """VisionTransformer.forward_features + head."""
    x = embed_image(image, params)          # patch_embed, cls_token concat, + pos_embed
    for blk in params["blocks"]:
        x = encoder_block(x, blk, params["heads"])
    x = layer_norm(x, params["ln_g"], params["ln_b"])
    x = x[0]                                # the class token
    return x @ params["W_head"] + params["b_head"]
