"""Blind round 21 (b21_05, issue 38): self_attention and layer_norm ported from PaddlePaddle
ViT code (PaddleClas-era `Attention(nn.Layer)`: a fused qkv reshaped to (N, 3, heads, d_h) and
transposed with tuple perms, paddle.tril masks, paddle.var).

Mistakes:
1. self_attention (causal=True only): the causal mask is `tril(ones, 1)`, one diagonal too many:
   each token also sees the next one.
2. layer_norm uses the unbiased variance (`ddof=1`, paddle.var's default unbiased=True) instead
   of the biased one.

Grader: at blind time and now, both named: the triangle one diagonal off (k=1 instead of k=0)
and the unbiased variance; vit-checkpoint observes the broken functions. Every mistake named, so
in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:diagonal:self_attention/causal_mask:tri.k=1',
          'layer-norm': 'layer_norm_unbiased'}


def self_attention(x, p, heads, causal=False):
    N, C = x.shape
    if C % heads != 0:
        raise ValueError("embed_dim must be divisible by num_heads")
    head_dim = C // heads
    scale = head_dim ** -0.5
    qkv_w = np.concatenate((p["Wq"], p["Wk"], p["Wv"]), axis=1)
    qkv_b = np.concatenate((p["bq"], p["bk"], p["bv"]), axis=0)
    qkv = (np.matmul(x, qkv_w) + qkv_b).reshape((N, 3, heads, head_dim)).transpose((1, 2, 0, 3))
    q, k, v = qkv[0], qkv[1], qkv[2]
    attn = np.matmul(q, k.transpose((0, 2, 1))) * scale
    if causal:
        mask = np.tril(np.ones((N, N)), 1)
        attn = np.where(mask == 0, -np.inf, attn)
    attn = softmax(attn, axis=-1)
    out = np.matmul(attn, v).transpose((1, 0, 2)).reshape((N, C))
    return np.matmul(out, p["Wo"]) + p["bo"]


def layer_norm(x, gamma, beta, eps=1e-6):
    x = np.asarray(x)
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.var(x, axis=-1, keepdims=True, ddof=1)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta
