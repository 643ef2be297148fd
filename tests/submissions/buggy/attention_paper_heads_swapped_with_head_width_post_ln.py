"""Blind round 59 (b59_11, issue 38): self_attention and encoder_block ported from
brandokoch/attention-is-all-you-need-paper `src/architectures/multi_head_attention.py`
(ScaledDotProductAttention, MultiHeadAttention's _split_into_heads / _concatenate_heads),
`add_and_norm.py` (AddAndNorm) and `transformer_encoder.py` (TransformerEncoderBlock). The
student's top-level `scaled_dot_product_attention`, `_split_into_heads` and `_concatenate_heads`
are nested in self_attention and `add_and_norm` in encoder_block here: the builder replaces only
the solution's own definitions.

Mistakes:
17. self_attention (`_split_into_heads` lines 105-107, `_concatenate_heads` line 112 of the file
    as delivered): the torch `transpose(1, 2)` indices are kept after the batch axis was dropped,
    so q, k, v become (T, d_head, heads) and attention runs over the head-width axis inside each
    token. Wrong on any input (raises ValueError with causal=True when d_head != T).
18. encoder_block (lines 146-150): the paper's post-LN AddAndNorm, `LN(x + sublayer(x))` with
    the sublayer on the un-normalised input, instead of pre-LN. Wrong on any input; vit_forward
    inherits it.

Grader: at blind time (528b2ec3), 87/110. Mistake 18 named on encoder-block ("That is a post-LN
block (LayerNorm after each residual sum ...). ViT is pre-LN"). Mistake 17 only observed:
multi-head-attention's three checks give their checklist ("With one head, d_h = d: ..."),
no-causal-mask's default check an observation ("... as if each token attended only to itself
..."), its other two checks point back to multi-head-attention. A hint would say that
`_split_into_heads` swaps axes 1 and 2 of the (T, heads, d_h) array, so attention runs over the
head width inside each token: swap axes 0 and 1 (and undo it so in `_concatenate_heads`). Named
since (error_model/head_pairs.py, a split and merge swapping the wrong pair of axes) on
multi-head-attention and no-causal-mask's causal checks: moved from unnamed/ to buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:heads_wrong_pair:self_attention:heads-split-and-merge-swap-last-two',
          'no-causal-mask': 'op:heads_wrong_pair:self_attention:heads-split-and-merge-swap-last-two',
          'encoder-block': 'encoder_post_ln'}


def self_attention(x, p, heads, causal=False):
    def scaled_dot_product_attention(q, k, v, d_head, mask=None):
        attention_weights = np.matmul(q, np.swapaxes(k, -2, -1))
        scaled_attention_weights = attention_weights / math.sqrt(d_head)
        if mask is not None:
            scaled_attention_weights = np.where(mask == 0, -np.inf, scaled_attention_weights)
        # Apply softmax over the last dimension which corresponds to attention weights for a key
        scaled_attention_weights = softmax(scaled_attention_weights, axis=-1)
        weighted_v = np.matmul(scaled_attention_weights, v)
        return weighted_v

    def _split_into_heads(q, k, v, n_heads, d_head):
        q = q.reshape(q.shape[0], n_heads, d_head)  # (seq_len, n_heads, d_head)
        k = k.reshape(k.shape[0], n_heads, d_head)
        v = v.reshape(v.shape[0], n_heads, d_head)

        q = np.swapaxes(q, 1, 2)
        k = np.swapaxes(k, 1, 2)
        v = np.swapaxes(v, 1, 2)
        return q, k, v

    def _concatenate_heads(attention_output):
        attention_output = np.swapaxes(attention_output, 1, 2)
        attention_output = attention_output.reshape(attention_output.shape[0], -1)  # (seq_len, n_heads * d_head)
        return attention_output

    d_model = x.shape[-1]
    n_heads = heads
    if d_model % n_heads != 0:
        raise ValueError("d_model must be divisible by n_heads")
    d_head = d_model // n_heads

    q = x @ p["Wq"] + p["bq"]  # W_q
    k = x @ p["Wk"] + p["bk"]  # W_k
    v = x @ p["Wv"] + p["bv"]  # W_v

    mask = np.tril(np.ones((x.shape[0], x.shape[0]))) if causal else None
    q, k, v = _split_into_heads(q, k, v, n_heads, d_head)
    attention_output = scaled_dot_product_attention(q, k, v, d_head, mask)
    attention_output = _concatenate_heads(attention_output)
    return attention_output @ p["Wo"] + p["bo"]  # W_0


def encoder_block(x, p, heads):
    """TransformerEncoderBlock.forward."""
    def add_and_norm(x, residual, gamma, beta):
        return layer_norm(x + residual, gamma, beta)

    mha_out = self_attention(x, p, heads)
    mha_out = add_and_norm(x, mha_out, p["ln1_g"], p["ln1_b"])

    ffn_out = gelu(mha_out @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
    ffn_out = add_and_norm(mha_out, ffn_out, p["ln2_g"], p["ln2_b"])
    return ffn_out
