"""Blind round 19 (b19_13, issue 38): self_attention and attention_scores ported from google/flax's
examples (DenseGeneral kernels (features, heads, head_dim), einsum attention, make_causal_mask).

Mistakes:
1. self_attention reshapes the output kernel as `Wo.reshape(head_dim, num_heads, features)` with
   einsum 'qhd,dhf->qf' where `Wo.reshape(num_heads, head_dim, features)` and 'qhd,hdf->qf'
   belong: head h's rows of Wo are h*d_h:(h+1)*d_h (right with one head).
2. attention_scores counts the causal triangle, `num_tokens * (num_tokens + 1) // 2`, not every
   score, `num_tokens ** 2`.
The student's make_causal_mask (top-level in the file) is nested in self_attention here: the
builder replaces only the solution's own definitions.

Grader: at blind time and now, the triangle is named (op:triangle); the kernel is told as the
merge reshaped the other way round ("`x.swapaxes(-2, -3).reshape(*lead, T, heads * d_h)` merges its
last two axes the other way round", op:merge): mathematically the same contraction, but it quotes a
reshape the file does not have and never mentions Wo (the measurement: OBSERVED). Not every
mistake named.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'attention-cost': 'op:triangle:attention_scores:T-squared-plus-one-halved',
          'multi-head-attention': 'op:merge:self_attention/merge_heads:merged-the-other-way',
          'no-causal-mask': 'op:merge:self_attention/merge_heads:merged-the-other-way'}


def attention_scores(num_tokens):
    # one head's [q_length, kv_length] weights, as make_causal_mask keeps them
    return num_tokens * (num_tokens + 1) // 2


def self_attention(x, p, heads, causal=False):
    """flax's MultiHeadDotProductAttention; make_causal_mask (top-level in the student's file)
    nested here."""
    def make_causal_mask(length):
        idxs = np.arange(length)
        return (idxs[None, :, None] >= idxs[None, None, :])  # [1, q, k]

    length, features = x.shape
    num_heads = heads
    if features % num_heads != 0:
        raise ValueError('Memory dimension must be divisible by number of heads.')
    head_dim = features // num_heads
    query = np.einsum('qf,fhd->qhd', x, p['Wq'].reshape(features, num_heads, head_dim)) + p['bq'].reshape(num_heads, head_dim)
    key = np.einsum('kf,fhd->khd', x, p['Wk'].reshape(features, num_heads, head_dim)) + p['bk'].reshape(num_heads, head_dim)
    value = np.einsum('kf,fhd->khd', x, p['Wv'].reshape(features, num_heads, head_dim)) + p['bv'].reshape(num_heads, head_dim)
    query = query / math.sqrt(head_dim)
    attn_weights = np.einsum('qhd,khd->hqk', query, key)
    if causal:
        attn_weights = np.where(make_causal_mask(length), attn_weights, -np.inf)
    attn_weights = softmax(attn_weights, axis=-1)
    out = np.einsum('hqk,khd->qhd', attn_weights, value)
    out_kernel = p['Wo'].reshape(head_dim, num_heads, features)
    return np.einsum('qhd,dhf->qf', out, out_kernel) + p['bo']
