"""Blind round 34 (b34_04, issue 38): self_attention ported from ishwar6/transformers
(utils/multi-attention.py: the tf.keras MultiHeadSelfAttention layer, split_heads / merge_heads,
scaled_dot_product_attention with `logits += mask * -1e9`). The source's helpers are nested in
self_attention.

Mistakes:
1. causal=True only: the look-ahead mask is built as `np.tril(ones)` (1 = keep), but the source's
   convention adds `mask * -1e9`, where 1 means hide: each query hides the past and itself and
   attends to the future. Right for causal=False.

Grader: at blind time (5712eea) and now, named: "the mask is added as if it marked the hidden
keys, `scores + mask * -1e9` (the TensorFlow tutorial's `mask * -1e9`, 1 where a key is
hidden), where `np.where(mask, scores, -np.inf)` belongs ..." on both no-causal-mask checks.
Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:keep_mask_hiding:self_attention/attention:keep-mask-added-as-hidden'}


def self_attention(x, p, heads, causal=False):
    d_model = x.shape[-1]
    if d_model % heads:
        raise ValueError("d_model must be divisible by num_heads")
    d_head = d_model // heads

    def scaled_dot_product_attention(q, k, v, mask=None):
        matmul_qk = q @ np.swapaxes(k, -2, -1)  # transpose last two dimensions for dot product
        d_k = k.shape[-1]  # dimensionality of keys
        scaled_attention_logits = matmul_qk / np.sqrt(d_k)
        if mask is not None:
            scaled_attention_logits += (mask * -1e9)
        attention_weights = softmax(scaled_attention_logits, axis=-1)
        output = attention_weights @ v
        return output, attention_weights

    def split_heads(t):
        split_inputs = np.reshape(t, (-1, heads, d_head))
        return np.transpose(split_inputs, (1, 0, 2))

    def merge_heads(t):
        merged_inputs = np.transpose(t, (1, 0, 2))
        return np.reshape(merged_inputs, (-1, d_model))

    qs = split_heads(x @ p["Wq"] + p["bq"])
    ks = split_heads(x @ p["Wk"] + p["bk"])
    vs = split_heads(x @ p["Wv"] + p["bv"])

    mask = None
    if causal:
        seq_len = x.shape[0]
        mask = np.tril(np.ones((seq_len, seq_len)))  # look-ahead mask

    output, attn_weights = scaled_dot_product_attention(qs, ks, vs, mask)
    output = merge_heads(output)
    return output @ p["Wo"] + p["bo"]
