"""Blind round 69 (b69_06, issue 38): self_attention ported from DylanTombs/TradingTransformer
`Transformer/MultiHeadAttention.py`.

Mistakes:
1. self_attention (lines 216 and 199 of the file as delivered): the heads' outputs stacked
   with `np.stack(..., axis=1)`, already (T, heads, d_k) in this unbatched port, and
   combine_heads still does `transpose(1, 0, 2)` before the reshape, which scrambles tokens
   and heads. Wrong with heads > 1 only.
2. self_attention (lines 203 and 173): GPT's look-ahead mask `np.triu(ones, k=1)` (1 =
   future) meets the source's `np.where(mask == 0, -1e9, scores)` (0 = hide): the past and the
   diagonal hidden, the future kept. Wrong with causal=True only.
The delivered file's top-level helper `_scaled_dot_product_attention` is nested in
self_attention here.

Grader: at blind time (cb37e6da) and now, 95/110. Mistake 2 named on no-causal-mask ("the mask
hides the scores it should keep and keeps the ones it should hide ... a mask that marks the hidden
keys ... meets a rule that reads 1 as "keep""). Mistake 1 on multi-head-attention (and part (1) of
the no-causal-mask hint): at blind time "the heads' outputs are merged by a reshape without moving
the head axis back first". The judge found it only partly named and that hint WRONG (borderline):
the code does transpose before the reshape (combine_heads); the fault is the stack axis, which the
hint did not point to. Since bc5ce57d (report/merge_order.py) it is said from the values, true,
and points to both lines: "In `self_attention`, the heads' outputs reach the merge in another axis
order: the reshape to (T, d) needs them (T, heads, d_h)-ordered, yours are (heads, T,
d_h)-ordered when they are reshaped, so each row of the result mixes the values of several
tokens. Your code does move axes before it reshapes (`x.transpose(1, 0, 2)` in `combine_heads`):
look at the order the heads' outputs have before that move (how they are stacked or computed)
and at what the move makes of it." why-positions loses 1 point with its checklist ("Your
self_attention depends on the order of its rows"), true, from mistake 1. Judged again at
b9994292: every mistake named, no hint wrong, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed',
          'no-causal-mask': ('op:transpose:self_attention/merge_heads:x.swapaxes-removed'
                             '+op:mask_swapped:self_attention/attention:'
                             'kept-and-hidden-swapped-finite-fill'),
          'why-positions': 'attention_not_equivariant'}


def self_attention(x, p, heads, causal=False):
    """MultiHeadAttention.forward (DylanTombs/TradingTransformer), for one sequence (T, d)."""
    def _scaled_dot_product_attention(q, k, v, mask=None):
        """q, k, v shape: (seq_len, d_k); mask shape (optional): (seq_len, seq_len)"""
        d_k = q.shape[-1]
        # Step 1: Compute raw attention scores
        scores = np.matmul(q, np.transpose(k))  # shape: (seq_len, seq_len)
        # Step 2: Scale scores
        scores /= np.sqrt(d_k)
        # Step 3: Apply mask (optional)
        if mask is not None:
            scores = np.where(mask == 0, -1e9, scores)
        # Step 4: Softmax over last axis (attention weights)
        attn_weights = softmax(scores, axis=-1)
        # Step 5: Multiply by values
        output = np.matmul(attn_weights, v)
        return output, attn_weights

    seq_len, d_model = x.shape
    if d_model % heads != 0:
        raise ValueError("d_model must be divisible by num_heads")
    num_heads = heads
    d_k = d_model // num_heads

    def linear(x, weight, bias):
        return np.matmul(x, weight) + bias  # (seq_len, d_model)

    def split_heads(x):
        # Split last dim into (num_heads, d_k) and transpose
        x = x.reshape(seq_len, num_heads, d_k)
        return x.transpose(1, 0, 2)  # (heads, seq_len, d_k)

    def combine_heads(x):
        # (heads, seq_len, d_k) -> (seq_len, d_model)
        x = x.transpose(1, 0, 2)
        return x.reshape(seq_len, d_model)

    # look-ahead mask for GPT-style attention: 1 above the diagonal = future token
    mask = np.triu(np.ones((seq_len, seq_len)), k=1) if causal else None

    q_heads = split_heads(linear(x, p["Wq"], p["bq"]))
    k_heads = split_heads(linear(x, p["Wk"], p["bk"]))
    v_heads = split_heads(linear(x, p["Wv"], p["bv"]))

    # Scaled Dot-Product Attention
    output_heads = []
    for i in range(num_heads):
        out, _ = _scaled_dot_product_attention(q_heads[i], k_heads[i], v_heads[i], mask)
        output_heads.append(out)

    # Stack heads back together: list of (seq_len, d_k) -> (heads, seq_len, d_k)
    output = np.stack(output_heads, axis=1)

    # Combine heads
    combined = combine_heads(output)

    # Final output projection
    return linear(combined, p["Wo"], p["bo"])
