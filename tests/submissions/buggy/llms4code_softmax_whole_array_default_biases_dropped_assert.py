"""Blind round 39 (b39_03, issue 38): softmax and self_attention ported from
RasKrebs/llms4code_code_quality (multihead-attention/gpt-4-turbo/medium.py: softmax,
scaled_dot_product_attention, MultiHeadAttention), plain numpy. The student's helpers stay
nested in self_attention, as in the file.

Mistakes:
1. softmax: `def softmax(x, axis=None)`: the default normalises over the WHOLE array (the API's
   default is axis=-1). self_attention itself passes axis=-1.
2. self_attention: the source's projections are bias-free (`np.dot(q, self.wq)`, ...,
   `np.dot(concat, self.wo)`): bq, bk, bv, bo are never used.
3. self_attention: `assert embedding_size % num_heads == 0`: d=8, heads=3 raises AssertionError,
   not the ValueError the API asks for.

Grader: at blind time (b589706) and now, named: "`axis` defaults to None (as
scipy.special.softmax's does) instead of -1" on stable-softmax; "the bias `b` is left out of
`x @ W + b`" on no-causal-mask and multi-head-attention (graded with the grader's softmax
standing in); "Your code refused the input with `assert` (AssertionError)" on
multi-head-attention's checks of heads that do not divide d; vit-checkpoint observes the broken
functions. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:default_changed:softmax:axis-default-None',
          'no-causal-mask': 'op:term:self_attention/linear*:drop-b',
          'multi-head-attention': 'refused_with_assert'}


def softmax(x, axis=None):
    """Compute softmax values for each sets of scores in x."""
    e_x = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e_x / e_x.sum(axis=axis, keepdims=True)


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d), MultiHeadAttention.forward with q = k = v = x."""
    embedding_size = x.shape[-1]
    num_heads = heads
    # Ensure the embedding size is divisible by the number of heads
    assert embedding_size % num_heads == 0
    depth = embedding_size // num_heads

    def scaled_dot_product_attention(query, key, value, mask=None):
        matmul_qk = np.matmul(query, np.swapaxes(key, -1, -2))
        dk = query.shape[-1]
        logits = matmul_qk / np.sqrt(dk)
        if mask is not None:
            logits = np.where(mask, logits, -np.inf)
        attention_weights = softmax(logits, axis=-1)
        output = np.matmul(attention_weights, value)
        return output, attention_weights

    def split_into_heads(y):
        # (batch_size, seq_len, num_heads, depth) -> (batch_size, num_heads, seq_len, depth)
        y = y.reshape(1, y.shape[0], num_heads, depth)
        return np.transpose(y, (0, 2, 1, 3))

    q = split_into_heads(np.dot(x, p["Wq"]))
    k = split_into_heads(np.dot(x, p["Wk"]))
    v = split_into_heads(np.dot(x, p["Wv"]))
    T = x.shape[0]
    mask = np.tril(np.ones((T, T), dtype=bool)) if causal else None
    scaled_attention, _ = scaled_dot_product_attention(q, k, v, mask)
    scaled_attention = np.transpose(scaled_attention, (0, 2, 1, 3))
    concat_attention = scaled_attention.reshape(1, -1, embedding_size)
    output = np.dot(concat_attention, p["Wo"])
    return output[0]
