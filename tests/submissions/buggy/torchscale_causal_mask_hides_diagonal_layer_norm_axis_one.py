"""Blind round 63 (b63_08, issue 38): layer_norm and self_attention ported from microsoft/torchscale
`torchscale/component/multihead_attention.py` (MultiheadAttention.forward, with its
`np.nan_to_num`'d -inf mask) and `torchscale/architecture/encoder.py`.

Mistakes:
12. self_attention (line 94 of the file as delivered): the causal mask `np.triu(..., 0)` also
    hides the diagonal (the source has `triu(..., 1)`): row 0 has no key left and becomes uniform.
    Wrong only with causal=True.
13. layer_norm (lines 70-71): mean and variance over `axis=1` instead of the last axis. The same
    on 2-D (T, d) input; wrong on batched / 3-D input (an error on 1-D).

Grader: at blind time (edc81c9a) and now, 105/110, both named. Mistake 12 on no-causal-mask's two
causal checks ("your `np.triu(np.full([tgt_len, src_len], -np.inf), 0)` is one diagonal off ...
Write k=1 there", adding that the code's other difference, -inf as a finite fill, shows here only
in what this slip leads to: a query left with no key). Mistake 13 on layer-norm's random
(hidden) check ("One slip, made at 2 places: ... taken over axis 1, instead of over axis -1").
Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:axis:layer_norm:mean.axis=1+op:axis:layer_norm:var.axis=1',
          'no-causal-mask': 'op:diagonal:self_attention/causal_mask:tri.k=-1+~op:infinity_filled:self_attention/attention:minus-inf-as-fill-1e9'}


def layer_norm(x, gamma, beta, eps=1e-6):
    mean = x.mean(axis=1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


def self_attention(x, p, heads, causal=False):
    tgt_len, embed_dim = x.shape
    if embed_dim % heads != 0:
        raise ValueError("embed_dim must be divisible by num_heads")
    head_dim = embed_dim // heads
    scaling = head_dim ** -0.5
    src_len = tgt_len

    q = x @ p["Wq"] + p["bq"]
    k = x @ p["Wk"] + p["bk"]
    v = x @ p["Wv"] + p["bv"]
    q = q * scaling

    q = q.reshape(tgt_len, heads, head_dim).transpose(1, 0, 2)
    k = k.reshape(src_len, heads, head_dim).transpose(1, 0, 2)
    v = v.reshape(src_len, heads, head_dim).transpose(1, 0, 2)

    attn_weights = q @ k.transpose(0, 2, 1)
    if causal:
        attn_mask = np.triu(np.full([tgt_len, src_len], -np.inf), 0)
        attn_weights = attn_weights + np.nan_to_num(attn_mask, nan=0.0)

    attn_weights = softmax(attn_weights, axis=-1)
    attn = attn_weights @ v
    attn = attn.transpose(1, 0, 2).reshape(tgt_len, embed_dim)
    return attn @ p["Wo"] + p["bo"]

