"""Blind round 19 (b19_11, issue 38): self_attention and softmax ported from the Deep Learning
Specialization's numpy / TF assignments (rnn_utils.softmax, `scaled_dot_product_attention` with
`+= mask * -1e9`, `create_look_ahead_mask` via band_part).

Mistakes:
1. self_attention: the look-ahead mask is a keep-mask (lower triangle = 1), applied with the hide-
   mask formula `scores += mask * -1e9`: it hides the past and the diagonal and keeps the future
   (right with causal=False).
2. softmax takes the max over the whole array, `np.exp(x - np.max(x))`: slices far below the
   global max underflow to 0/0 = nan.
The student's create_look_ahead_mask and scaled_dot_product_attention (top-level in the file) are
nested in self_attention here: the builder replaces only the solution's own definitions.

Grader: at blind time and now, the global max is named (op:axis, max over axis=None); the mask
only observed ("returns the expected values only in 1 of 4 rows (row 3)", some_rows_wrong). Not
every mistake named.
Since session 15 the keep-mask added as a mask of the hidden keys is named
(terms.keep_mask_hiding: `scores + mask * -1e9` for `np.where(mask, scores, -np.inf)`): every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:axis:softmax:max.axis=None', 'no-causal-mask': 'op:keep_mask_hiding:self_attention/attention:keep-mask-added-as-hidden'}


def softmax(x, axis=-1):
    e_x = np.exp(x - np.max(x))
    return e_x / e_x.sum(axis=axis, keepdims=True)


def self_attention(x, p, heads, causal=False):
    """The assignment's MultiHeadAttention; its create_look_ahead_mask and
    scaled_dot_product_attention (top-level in the student's file) nested here."""
    def create_look_ahead_mask(sequence_length):
        return np.tril(np.ones((1, sequence_length, sequence_length)))

    def scaled_dot_product_attention(q, k, v, mask):
        matmul_qk = np.matmul(q, np.swapaxes(k, -1, -2))
        dk = float(k.shape[-1])
        scaled_attention_logits = matmul_qk / np.sqrt(dk)
        if mask is not None:
            scaled_attention_logits += (mask * -1e9)
        attention_weights = softmax(scaled_attention_logits, axis=-1)
        output = np.matmul(attention_weights, v)
        return output, attention_weights

    seq_len, d_model = x.shape
    num_heads = heads
    if d_model % num_heads != 0:
        raise ValueError("d_model must be divisible by num_heads")
    depth = d_model // num_heads

    def split_heads(t):
        return np.transpose(t.reshape(seq_len, num_heads, depth), (1, 0, 2))

    q = split_heads(np.dot(x, p["Wq"]) + p["bq"])
    k = split_heads(np.dot(x, p["Wk"]) + p["bk"])
    v = split_heads(np.dot(x, p["Wv"]) + p["bv"])
    mask = create_look_ahead_mask(seq_len) if causal else None
    scaled_attention, _ = scaled_dot_product_attention(q, k, v, mask)
    concat_attention = np.transpose(scaled_attention, (1, 0, 2)).reshape(seq_len, d_model)
    return np.dot(concat_attention, p["Wo"]) + p["bo"]
