"""Blind round 59 (b59_09, issue 38): layer_norm and self_attention ported from
facebookresearch/vissl `vissl/models/trunks/vision_transformer.py` (`nn.LayerNorm(dim)` with
torch's default eps; Attention with q, k, v stacked into one qkv, the batch axis dropped).

Mistakes:
15. self_attention (line 114 of the file as delivered): `(attn @ v).reshape(N, C)`: the source's
    `.transpose(1, 2)` before the reshape was dropped with the batch axis, so the (heads, N, d_h)
    result is merged without putting the tokens first. Wrong only with heads > 1.
16. layer_norm (line 90): default `eps=1e-5` (torch's), not 1e-6. Wrong for every call that
    relies on the default: ~4e-5 abs on unit-variance rows, large on rows of small spread;
    encoder_block and vit_forward inherit it; calls passing `eps=` agree.

Grader: at blind time (528b2ec3) and now, 92/110, both named ("In `self_attention`, the heads'
outputs are merged by a reshape without moving the head axis back first"; "In `layer_norm`, eps
is 1e-05; the student API's is 1e-06."). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:constant:layer_norm:eps=1e-05',
          'multi-head-attention': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed',
          'no-causal-mask': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed'}
ALIASES = ('attention_not_equivariant',)  # the permutation property's verdict on the merge


def layer_norm(x, gamma, beta, eps=1e-5):
    """nn.LayerNorm(dim)"""
    mean = x.mean(-1, keepdims=True)
    var = x.var(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


def self_attention(x, p, heads, causal=False):
    """Attention.forward with separate q, k, v weights stacked into one qkv."""
    N, C = x.shape
    num_heads = heads
    if C % num_heads:
        raise ValueError("dim must be divisible by num_heads")
    scale = (C // num_heads) ** -0.5
    qkv_w = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1)
    qkv_b = np.concatenate([p["bq"], p["bk"], p["bv"]])
    qkv = (x @ qkv_w + qkv_b).reshape(N, 3, num_heads, C // num_heads).transpose(1, 2, 0, 3)
    q, k, v = qkv[0], qkv[1], qkv[2]

    attn = (q @ k.transpose(0, 2, 1)) * scale
    if causal:
        attn = np.where(np.tril(np.ones((N, N))) > 0, attn, -np.inf)
    attn = softmax(attn, axis=-1)

    x = (attn @ v).reshape(N, C)
    x = x @ p["Wo"] + p["bo"]
    return x
