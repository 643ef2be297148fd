"""Blind round 33 (b33_12, issue 38): self_attention ported from Flax's linen attention
(flax/linen/attention.py: MultiHeadDotProductAttention, dot_product_attention_weights,
make_causal_mask), as vendored in amyxlu/msa-transformer-jax (model.py), numpy in place of
jax.numpy.

Mistakes:
1. The value einsum is written heads-first ('...hqk,...khd->...hqd') while the merge keeps Flax's
   (length, heads, head_dim) reshape: x.reshape(T, d) of a (heads, T, d_h) array scrambles the
   tokens and the heads before Wo. Right with one head.

Grader: at blind time (c4f83ef) and now, named: at blind time "(in its step
`merge_heads(attention(q, k, v, mask))`), `x.swapaxes(-2, -3)` is used without its transpose" (the
reference's words, the cause right; now: "In `self_attention`, the heads' outputs are merged by a
reshape without moving the head axis back first ...") on no-causal-mask and multi-head-attention;
why-positions' equivariance check, which calls this self_attention, gets its checklist;
vit-checkpoint observes it. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed',
          'multi-head-attention': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed'}
ALIASES = ('attention_not_equivariant',)  # why-positions' permutation checklist for the merge


def self_attention(x, p, heads, causal=False):
    inputs_q = np.asarray(x, dtype=float)
    features = inputs_q.shape[-1]
    qkv_features = features
    num_heads = heads
    if qkv_features % num_heads != 0:
        raise ValueError('Memory dimension must be divisible by number of heads.')
    head_dim = qkv_features // num_heads
    length = inputs_q.shape[-2]

    def dense(kernel, bias):
        # DenseGeneral(features=(num_heads, head_dim), axis=-1)
        y = inputs_q @ kernel + bias
        return y.reshape(y.shape[:-1] + (num_heads, head_dim))

    # project inputs_q to multi-headed q/k/v
    # dimensions are then [length, n_heads, n_features_per_head]
    query, key, value = (dense(p['Wq'], p['bq']), dense(p['Wk'], p['bk']), dense(p['Wv'], p['bv']))

    # dot_product_attention_weights
    depth = query.shape[-1]
    query = query / np.sqrt(depth)
    # attn weight shape is (num_heads, q_length, kv_length)
    attn_weights = np.einsum('...qhd,...khd->...hqk', query, key)
    if causal:
        mask = np.tril(np.ones((length, length), dtype=bool))     # make_causal_mask
        big_neg = np.finfo(attn_weights.dtype).min
        attn_weights = np.where(mask, attn_weights, big_neg)
    attn_weights = softmax(attn_weights, axis=-1)

    # return weighted sum over values for each query position
    x = np.einsum('...hqk,...khd->...hqd', attn_weights, value)

    # back to the original inputs dimensions: DenseGeneral(features=features, axis=(-2, -1))
    out = x.reshape(length, num_heads * head_dim) @ p['Wo'] + p['bo']
    return out
