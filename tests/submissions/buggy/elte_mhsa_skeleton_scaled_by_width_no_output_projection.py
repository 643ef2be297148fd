"""Blind round 46 (b46_05, issue 38): self_attention ported from gabar92/
elte_advanced_deep_learning, the MHSA assignment skeleton (numpy course code: create_qkv,
scaled_dot_product_attention, multi_head_attention with `scale = 1.0 / np.sqrt(hidden_dim)` and a
loop over head column slices, returning the concatenation).

Mistakes:
1. The scale is 1/sqrt(hidden_dim) = 1/sqrt(d), not 1/sqrt(d_h): right with one head only.
2. No output projection: Wo and bo are never used (the skeleton returns the concatenated heads).

Grader: at blind time (78229091) and now, both named: "You scaled by 1/sqrt(d), the model width
... scale by 1/sqrt(d_h)" and "apply the output projection: @ Wo + bo" on multi-head-attention;
"the scores are divided by sqrt(d) ..." and "the step `linear(out, p['Wo'], p['bo'])` is left
out" on no-causal-mask. encoder-block and vit-forward are graded with the grader's
self_attention; vit-checkpoint observes the broken self_attention. Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:skip:self_attention:skip-linear.4+op:constant:self_attention/attention:scale=sqrt(d)',
          'multi-head-attention': 'attention_scale_d+attention_no_output_projection'}


def self_attention(x, p, heads, causal=False):
    def create_qkv(inputs, weights_q, weights_k, weights_v, bias_q, bias_k, bias_v):
        """Compute queries, keys, and values from the input tensor."""
        Q = inputs @ weights_q + bias_q
        K = inputs @ weights_k + bias_k
        V = inputs @ weights_v + bias_v
        return Q, K, V

    def scaled_dot_product_attention(Q, K, V, scale, mask=None):
        """Compute the scaled dot product attention."""
        scores = Q @ K.T * scale
        if mask is not None:
            scores = np.where(mask, scores, -np.inf)
        weights = softmax(scores, axis=-1)
        return weights @ V

    def multi_head_attention(inputs, weights_q, weights_k, weights_v, num_heads, mask=None):
        """Compute multi-head self-attention."""
        seq_len, hidden_dim = inputs.shape
        if hidden_dim % num_heads != 0:
            raise ValueError("hidden_dim must be divisible by num_heads")
        head_dim = hidden_dim // num_heads
        scale = 1.0 / np.sqrt(hidden_dim)
        Q, K, V = create_qkv(inputs, weights_q, weights_k, weights_v, p["bq"], p["bk"], p["bv"])
        outputs = []
        for h in range(num_heads):
            cols = slice(h * head_dim, (h + 1) * head_dim)
            outputs.append(scaled_dot_product_attention(Q[:, cols], K[:, cols], V[:, cols], scale, mask))
        return np.concatenate(outputs, axis=-1)

    T = x.shape[0]
    mask = np.tril(np.ones((T, T), dtype=bool)) if causal else None
    return multi_head_attention(x, p["Wq"], p["Wk"], p["Wv"], heads, mask)
