"""Blind round 41 (b41_02, issue 38): the course notes "Transformer, in parts - Part 2:
Multi-headed Self-attention" (TensorFlow/Keras MultiHeadSelfAttention layer: attention(),
separate_heads(), call()), without the batch axis, as self_attention.

Mistakes (both only with several heads):
1. self_attention: the heads merged with `np.reshape(attention_out, (-1, d))`, (heads, T, d_h)
   not transposed back to (T, heads, d_h) (the source's `tf.transpose(perm=[0, 2, 1, 3])`
   dropped).
2. self_attention: the scores scaled by 1/sqrt(d), the full width: `dim_key` read from the key
   before `separate_heads` (the source reads it after the split).

Grader: at blind time (6092674) and now, both named together on the causal (heads=2), several heads
and both hidden checks: at blind time "2 mistakes at once: (1) ... `x.swapaxes(-2, -3)` is used
without its transpose ... (2) ... the scores are divided by sqrt(d), the model width, instead of
sqrt(d_h)" (now: "2 mistakes at once: (1) In `self_attention`, the heads' outputs are merged by a
reshape without moving the head axis back first ... (2) ... the scores are divided by sqrt(d), the
model width, instead of sqrt(d_h)"). why-positions (the file's self_attention) has its true
checklist; vit-checkpoint observes the broken function. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed+op:constant:self_attention/attention:scale=sqrt(d)',
          'multi-head-attention': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed+op:constant:self_attention/attention:scale=sqrt(d)',
          'why-positions': 'attention_not_equivariant'}


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d) (section 3 step 5; Practice 6).

    Ported from the Keras MultiHeadSelfAttention layer of "Transformer, in parts" (part 2),
    without the batch axis: query_dense/key_dense/value_dense are x @ W + b.
    """
    seq_len, embed_dim = x.shape
    num_heads = heads
    if embed_dim % num_heads != 0:
        raise ValueError(
            f"embedding dimension = {embed_dim} should be divisible by number of heads = {num_heads}"
        )
    projection_dim = embed_dim // num_heads

    def attention(query, key, value, dim_key):
        score = np.matmul(query, np.swapaxes(key, -1, -2))
        scaled_score = score / np.sqrt(dim_key)
        if causal:
            keep = np.tril(np.ones((seq_len, seq_len), dtype=bool))
            scaled_score = np.where(keep, scaled_score, -np.inf)
        weights = softmax(scaled_score, axis=-1)
        out = np.matmul(weights, value)
        return out, weights

    def separate_heads(x):
        x = np.reshape(x, (-1, num_heads, projection_dim))
        return np.transpose(x, (1, 0, 2))

    # Query
    query = x @ p["Wq"] + p["bq"]  # (seq_len, embed_dim)
    query = separate_heads(query)  # (num_heads, seq_len, projection_dim)

    # Key
    key = x @ p["Wk"] + p["bk"]  # (seq_len, embed_dim)
    dim_key = float(key.shape[-1])
    key = separate_heads(key)  # (num_heads, seq_len, projection_dim)

    # Value
    value = x @ p["Wv"] + p["bv"]  # (seq_len, embed_dim)
    value = separate_heads(value)  # (num_heads, seq_len, projection_dim)

    # Attention
    attention_out, _ = attention(query, key, value, dim_key)

    # Combine back to num_heads*projection_dim
    concat_attention = np.reshape(attention_out, (-1, embed_dim))  # (seq_len, embed_dim)

    # Apply a final Dense layer
    return concat_attention @ p["Wo"] + p["bo"]
