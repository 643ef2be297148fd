"""Blind round 28 (b28_05, issue 38): self_attention ported from the TensorFlow tutorial
"Transformer model for language understanding" (tensorflow.org/text/tutorials/transformer,
2020-2022: scaled_dot_product_attention with `scaled_attention_logits += (mask * -1e9)`,
create_look_ahead_mask = 1 - band_part(ones, -1, 0), split_heads). The student's top-level
helpers `_band_part`, `create_look_ahead_mask` and `scaled_dot_product_attention` are nested in
self_attention here: the builder replaces only the solution's own definitions.

Mistakes:
1. The look-ahead mask is band_part(ones, -1, 0), the lower triangle (the positions to keep),
   used with the tutorial's `mask * -1e9` convention that expects 1 where a position is hidden
   (the `1 -` dropped): each token sees only itself and later tokens, only the last row is
   right. Shows only with causal=True.

Grader: at blind time and now, not named: observed on no-causal-mask, "returns the expected
values only in 1 of 4 rows (row 3)" (some_rows_wrong), no cause named: in unnamed/.
Since session 15 the keep-mask added as a mask of the hidden keys is named
(terms.keep_mask_hiding: `scores + mask * -1e9` for `np.where(mask, scores, -np.inf)`): every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:keep_mask_hiding:self_attention/attention:keep-mask-added-as-hidden'}


def self_attention(x, p, heads, causal=False):
    def _band_part(a, num_lower, num_upper):
        n, m = a.shape
        i, j = np.indices((n, m))
        keep = ((num_lower < 0) | (i - j <= num_lower)) & ((num_upper < 0) | (j - i <= num_upper))
        return np.where(keep, a, 0.0)

    def create_look_ahead_mask(size):
        mask = _band_part(np.ones((size, size)), -1, 0)
        return mask

    def scaled_dot_product_attention(q, k, v, mask):
        matmul_qk = np.matmul(q, np.swapaxes(k, -1, -2))  # (..., seq_len_q, seq_len_k)
        dk = float(k.shape[-1])
        scaled_attention_logits = matmul_qk / np.sqrt(dk)
        if mask is not None:
            scaled_attention_logits += (mask * -1e9)
        attention_weights = softmax(scaled_attention_logits, axis=-1)
        output = np.matmul(attention_weights, v)          # (..., seq_len_q, depth_v)
        return output, attention_weights

    seq_len, d_model = x.shape
    if d_model % heads != 0:
        raise ValueError("d_model must be divisible by num_heads")
    depth = d_model // heads

    def split_heads(t):
        return np.reshape(t, (-1, heads, depth)).transpose(1, 0, 2)

    q = split_heads(x @ p["Wq"] + p["bq"])
    k = split_heads(x @ p["Wk"] + p["bk"])
    v = split_heads(x @ p["Wv"] + p["bv"])
    mask = create_look_ahead_mask(seq_len) if causal else None
    scaled_attention, _ = scaled_dot_product_attention(q, k, v, mask)
    concat_attention = scaled_attention.transpose(1, 0, 2).reshape(-1, d_model)
    return concat_attention @ p["Wo"] + p["bo"]
