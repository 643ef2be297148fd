"""Blind round 69 (b69_07, issue 38): softmax and self_attention ported from
jimmybanta/LLM-from-scratch `transformer/attention.py` and `transformer/utils.py`.

Mistakes:
1. self_attention (lines 198-200 of the file as delivered): per-head weights built as the
   source stores them, "(num_heads, d_model, d_model // num_heads)", by
   `p["Wq"].reshape(num_heads, d_model, d_k)`: memory-contiguous blocks, not the column blocks
   h*d_h:(h+1)*d_h. Wrong with heads > 1 only.
2. softmax (line 141): the source's default `axis=2`. A 1-D or 2-D input raises AxisError, a
   4-D one is normalised over the wrong axis; 3-D is right. Wrong when axis is not passed.
The delivered file's top-level helper `_attention_head` is nested in self_attention here.

Grader: at blind time (cb37e6da) and now, 90/110. Mistake 1 named on multi-head-attention and
no-causal-mask ("each head's weights are taken ... by a reshape of the whole matrix,
`W.reshape(heads, d, d // heads)[h]`"). Mistake 2 not told: stable-softmax's three failed
checks have only checklist hints ("Pass `axis` and keepdims=True to both np.max and np.sum";
"-1 when not given"), the AxisError traceback the only clue. Named since, in the same session (2 among
choices.AXES): "`axis` defaults to 2 ... a call that names it is right". Every mistake named, so
in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:default_flipped:softmax:axis-defaults-2',
          'multi-head-attention': 'op:weights_reshaped:self_attention:weights-reshaped-per-head',
          'no-causal-mask': 'op:weights_reshaped:self_attention:weights-reshaped-per-head'}


def softmax(x, axis=2, temperature=1.0):
    """
    Compute the softmax values.
    Shifts the array to avoid overflow.
    """
    # if temperature is 0, set it to a very small value
    if temperature == 0:
        temperature = 0.00000000000001
    # get the max value - to shift everything by
    x_max = np.amax(x, axis=axis, keepdims=True)
    # exponentiate all shifted values, divided by the temperature
    exp_shifted = np.exp((x - x_max) / temperature)
    return exp_shifted / np.sum(exp_shifted, axis=axis, keepdims=True)


def self_attention(x, p, heads, causal=False):
    """MultiHeadAttention.forward: one AttentionHead per head, outputs concatenated, @ w_o."""
    def _attention_head(x, w_q, b_q, w_k, b_k, w_v, b_v, d_k, attention_mask=None):
        """AttentionHead.forward: x (seq_len, d_model) -> values (seq_len, d_v)."""
        # calculate query, key, and value vectors
        query = x @ w_q + b_q
        key = x @ w_k + b_k
        value = x @ w_v + b_v
        # calculate the attention scores
        ## multiply query by transposed key matrices
        scores = query @ key.T
        # divide element-wise by square root of d_k
        scores /= np.sqrt(d_k)
        # apply the attention mask, if provided
        if attention_mask is not None:
            scores[attention_mask] = -np.inf
        # take softmax of these attention scores
        scores = softmax(scores, axis=-1)
        # replace nan with 0 - for the padding tokens
        scores = np.nan_to_num(scores, nan=0.0)
        # multiply by value vectors
        return scores @ value

    seq_len, d_model = x.shape
    if d_model % heads:
        raise ValueError("d_model must be divisible by num_heads")
    num_heads = heads
    d_k = d_model // num_heads
    # The query matrix, of shape (num_heads, d_model, d_model // num_heads)
    w_q = p["Wq"].reshape(num_heads, d_model, d_k)
    w_k = p["Wk"].reshape(num_heads, d_model, d_k)
    w_v = p["Wv"].reshape(num_heads, d_model, d_k)
    b_q = p["bq"].reshape(num_heads, d_k)
    b_k = p["bk"].reshape(num_heads, d_k)
    b_v = p["bv"].reshape(num_heads, d_k)
    attention_mask = np.triu(np.ones((seq_len, seq_len), dtype=bool), k=1) if causal else None
    # get the outputs from each head
    outputs = [_attention_head(x, w_q[i], b_q[i], w_k[i], b_k[i], w_v[i], b_v[i], d_k,
                               attention_mask=attention_mask) for i in range(num_heads)]
    # concatenate the outputs to form one array
    stacked_output = np.concatenate(outputs, axis=-1)
    # multiply the outputs by the output matrix to get the output of the layer
    return stacked_output @ p["Wo"] + p["bo"]
