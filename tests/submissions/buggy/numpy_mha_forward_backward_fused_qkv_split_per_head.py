"""Blind round 47 (b47_10, issue 38): self_attention ported from a numpy MultiHeadAttention with
forward/backward (code-search file id 1254047202; the UvA-DL tutorial's layout): Wq, Wk, Wv stacked
into one qkv_proj_weight, `qkv.reshape(seq_length, heads, 3 * head_dim)`, `np.split(qkv, 3,
axis=-1)`, a helper scaled_dot_product_attention with an additive -1e9 mask.

Mistakes:
1. The fused (d, 3d) projection is reshaped (T, heads, 3*d_h) and split in three: head h's q, k, v
   are the columns [3*d_h*h, 3*d_h*(h+1)) of the stacked projections, not columns
   h*d_h:(h+1)*d_h of each. Right for one head only.

Grader: at blind time (a4c32119) and now, named: "In `self_attention`, q, k, v come from one fused
product ..., split per token as (heads, 3, d_h) where its columns are (3, heads, d_h) ... Reshape
to (T, 3, heads, d_h) first." on no-causal-mask (heads=2) and multi-head-attention (several head
counts, hidden); vit-checkpoint observes self_attention. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:fused:self_attention:qkv-fused-heads-major',
          'multi-head-attention': 'op:fused:self_attention:qkv-fused-heads-major'}


def self_attention(x, p, heads, causal=False):
    """MultiHeadAttention.forward for one sequence, the q/k/v weights stacked into qkv_proj_weight."""
    def _scaled_dot_product_attention(Q, K, V, mask=None):
        d_k = K.shape[-1]
        scores = np.matmul(Q, np.swapaxes(K, -1, -2)) / np.sqrt(d_k)

        if mask is not None:
            scores += (mask * -1e9)

        attention_weights = np.exp(scores - np.max(scores, axis=-1, keepdims=True))
        attention_weights /= np.sum(attention_weights, axis=-1, keepdims=True)

        output = np.matmul(attention_weights, V)
        return output, attention_weights

    seq_length, embed_dim = x.shape
    if embed_dim % heads != 0:
        raise ValueError("Embedding dimension must be 0 modulo number of heads.")
    head_dim = embed_dim // heads

    qkv_proj_weight = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1)   # (d, 3d)
    qkv_proj_bias = np.concatenate([p["bq"], p["bk"], p["bv"]])

    mask = np.triu(np.ones((seq_length, seq_length)), k=1) if causal else None

    qkv = np.dot(x, qkv_proj_weight) + qkv_proj_bias
    qkv = qkv.reshape(seq_length, heads, 3 * head_dim)
    qkv = qkv.transpose(1, 0, 2)
    q, k, v = np.split(qkv, 3, axis=-1)

    values, attention = _scaled_dot_product_attention(q, k, v, mask=mask)
    values = values.transpose(1, 0, 2)
    values = values.reshape(seq_length, embed_dim)

    o = np.dot(values, p["Wo"]) + p["bo"]
    return o
