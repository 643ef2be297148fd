"""Blind round 68 (b68_06, issue 38): softmax and self_attention ported from
RasKrebs/llms4code_code_quality `multihead-attention/gpt-4-turbo/medium.py` (softmax,
scaled_dot_product_attention, MultiHeadAttention; the same source as b39_03, another port). The
student's top-level `scaled_dot_product_attention` is nested in self_attention here: the builder
replaces only the solution's own definitions.

Mistakes:
11. softmax (line 122 of the file as delivered): the source's `def softmax(x, axis=None)`: called
    without `axis` on a 2-D or larger array it normalises over the whole array. Wrong for such
    calls only (self_attention passes axis=-1).
12. self_attention (lines 179-181 and 192): the source's projections have no biases: bq, bk, bv
    and bo are never used. Wrong with nonzero biases only.

Grader: at blind time (766069c5) and now, 89/110, both named: mistake 11 on stable-softmax's three
failed checks ("In `softmax`, `axis` defaults to None (as scipy.special.softmax's does) instead of
-1"), mistake 12 on no-causal-mask's and multi-head-attention's five ("In `self_attention` (in
each of the model solution's 4 calls of `linear`), the bias `b` is left out of `x @ W + b`",
graded with the grader's `softmax` standing in); vit-checkpoint observes the broken
`self_attention`. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:default_changed:softmax:axis-default-None',
          'no-causal-mask': 'op:term:self_attention/linear*:drop-b',
          'multi-head-attention': 'op:term:self_attention/linear*:drop-b'}


def softmax(x, axis=None):
    """exp(x) normalised to sum to 1 along `axis`; any shape in, the same shape out.

    Numerically stable: subtracting the max along `axis` first changes nothing mathematically
    and keeps exp from overflowing for inputs near 1000.
    """
    """Compute softmax values for each sets of scores in x."""
    e_x = np.exp(x - np.max(x, axis=axis, keepdims=True))
    return e_x / e_x.sum(axis=axis, keepdims=True)


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention (T, d) -> (T, d) (section 3 step 5; Practice 6).

    q = x @ Wq + bq (likewise k, v); head h uses columns h*d_h:(h+1)*d_h, d_h = d // heads;
    softmax(q_h k_h^T / sqrt(d_h)) v_h per head, heads side by side, then @ Wo + bo.
    No mask by default (every patch sees every patch); causal=True hides later tokens as GPT
    does. ValueError when heads does not divide d.
    """
    def scaled_dot_product_attention(query, key, value, mask=None):
        """
        Calculate the attention weights.
        query, key, value must have matching leading dimensions.
        The sequence to be attended to (key) must be transposable.
        """
        matmul_qk = np.dot(query, key.T)  # matrix multiplication for the queries and keys
        depth = query.shape[-1]
        logits = matmul_qk / np.sqrt(depth)
        if mask is not None:
            logits = np.where(mask, logits, -np.inf)
        attention_weights = softmax(logits, axis=-1)
        output = np.dot(attention_weights, value)
        return output, attention_weights

    seq_len, embedding_size = x.shape
    # Ensure the embedding size is divisible by the number of heads
    if embedding_size % heads != 0:
        raise ValueError("embedding size must be divisible by the number of heads")
    depth = embedding_size // heads

    def split_into_heads(t):
        """Split the last dimension into (num_heads, depth) -> (num_heads, seq_len, depth)."""
        t = t.reshape(seq_len, heads, depth)
        return np.transpose(t, axes=[1, 0, 2])

    # Linear projections
    q = split_into_heads(np.dot(x, p["Wq"]))  # (num_heads, seq_len_q, depth)
    k = split_into_heads(np.dot(x, p["Wk"]))  # (num_heads, seq_len_k, depth)
    v = split_into_heads(np.dot(x, p["Wv"]))  # (num_heads, seq_len_v, depth)

    mask = np.tril(np.ones((seq_len, seq_len), dtype=bool)) if causal else None
    # Scaled dot-product attention for each head
    scaled_attention = np.stack([scaled_dot_product_attention(q[h], k[h], v[h], mask)[0] for h in range(heads)])
    scaled_attention = np.transpose(scaled_attention, axes=[1, 0, 2])  # (seq_len_q, num_heads, depth)

    # Concatenation of heads
    concat_attention = scaled_attention.reshape(seq_len, embedding_size)

    # Final linear layer
    output = np.dot(concat_attention, p["Wo"])  # (seq_len_q, embedding_size)
    return output
