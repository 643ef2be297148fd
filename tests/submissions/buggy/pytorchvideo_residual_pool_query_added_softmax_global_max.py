"""Blind round 22 (b22_10, issue 38): self_attention and softmax ported from
facebookresearch/pytorchvideo (MultiScaleAttention with residual_pool, MViTv2's
`x = attn @ v + q`).

Mistakes:
1. self_attention keeps the residual pooling: each head's query is added to its attention output
   before the heads are merged (`x = attn @ v; x = x + q`): wrong with any number of heads, with
   or without the mask.
2. softmax shifts by the max over the whole array, not along the axis: rows far below the global
   maximum underflow to nan.

Grader: at blind time and now (the same commit), the softmax named (`np.max(x, keepdims=True)` in
place of `np.max(x, axis=axis, keepdims=True)`); the residual pooling not: its 5 failed checks
(no-causal-mask, multi-head-attention) have no hint line, only "graded with the grader's correct
`softmax` standing in for yours ... so this failure is in this function's own code".
vit-checkpoint observes the broken functions. Not every mistake named, so in unnamed/.
Since the same session's next commit the residual pooling is named too (terms.argument_added:
`attention(q, k, v, mask) + q`): wholly named, moved to buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:axis:softmax:max.axis=None',
          'no-causal-mask': 'op:argument_added:self_attention:q-added-to-attention',
          'multi-head-attention': 'op:argument_added:self_attention:q-added-to-attention'}


def self_attention(x, p, heads, causal=False, residual_pool=True):
    N, C = x.shape
    num_heads = heads
    if C % num_heads:
        raise ValueError("dim must be divisible by num_heads")
    head_dim = C // num_heads
    scale = head_dim ** -0.5
    q = (x @ p["Wq"] + p["bq"]).reshape(N, num_heads, head_dim).transpose(1, 0, 2)
    k = (x @ p["Wk"] + p["bk"]).reshape(N, num_heads, head_dim).transpose(1, 0, 2)
    v = (x @ p["Wv"] + p["bv"]).reshape(N, num_heads, head_dim).transpose(1, 0, 2)
    attn = (q * scale) @ k.transpose(0, 2, 1)
    if causal:
        attn = np.where(np.tril(np.ones((N, N), dtype=bool)), attn, -np.inf)
    attn = softmax(attn, axis=-1)
    x = attn @ v
    if residual_pool:
        x = x + q
    x = x.transpose(1, 0, 2).reshape(N, C)
    return x @ p["Wo"] + p["bo"]


def softmax(x, axis=-1):
    x = np.asarray(x)
    e = np.exp(x - x.max())
    return e / e.sum(axis=axis, keepdims=True)
