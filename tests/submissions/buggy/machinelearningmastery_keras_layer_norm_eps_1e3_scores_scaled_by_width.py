"""Blind round 32 (b32_07, issue 38): machinelearningmastery.com, "How to Implement Multi-Head
Attention from Scratch in TensorFlow and Keras" and "Implementing the Transformer Encoder from
Scratch in TensorFlow and Keras" (keras LayerNormalization as layer_norm; DotProductAttention
and MultiHeadAttention.reshape_tensor, nested in self_attention).

Mistakes:
1. layer_norm: the default eps is keras' 1e-3 instead of 1e-6; right when eps is passed.
2. self_attention: the scores are divided by sqrt(d_k) with d_k = Wq.shape[1] = d (the tutorial's
   Dense(d_k) width, split over the heads), not sqrt(d_h): right with one head only.

Grader: at blind time (a78aae9) and now, both named: "In `layer_norm`, eps is 0.001; the
lecture's is 1e-06" on layer-norm; "You scaled by 1/sqrt(d), the model width"
(attention_scale_d) on multi-head-attention and "the scores are divided by sqrt(d), the model
width, instead of sqrt(d_h)" on no-causal-mask. encoder-block and vit-forward keep their points
(the grader's functions standing in); vit-checkpoint observes the broken functions. Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:constant:layer_norm:eps=0.001',
          'multi-head-attention': 'attention_scale_d',
          'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(d)'}


def layer_norm(x, gamma, beta, eps=1e-3):
    """keras.layers.LayerNormalization(): normalise over the last axis, then gamma and beta."""
    mean = np.mean(x, axis=-1, keepdims=True)
    variance = np.var(x, axis=-1, keepdims=True)
    return gamma * (x - mean) / np.sqrt(variance + eps) + beta


def self_attention(x, p, heads, causal=False):
    """MultiHeadAttention(h, d_k, d_v, d_model) called with queries = keys = values = x."""
    h = heads
    d_k = p["Wq"].shape[1]  # W_q = Dense(d_k)
    d_v = p["Wv"].shape[1]  # W_v = Dense(d_v)
    if d_k % h != 0:
        raise ValueError("d_k must be divisible by the number of heads")

    def dot_product_attention(queries, keys, values, d_k, mask=None):
        # Scoring the queries against the keys after transposing the latter, and scaling
        scores = np.matmul(queries, keys.transpose(0, 2, 1)) / math.sqrt(d_k)
        # Apply mask to the attention scores
        if mask is not None:
            scores += -1e9 * mask
        weights = softmax(scores)
        return np.matmul(weights, values)

    def reshape_tensor(x, heads, flag):
        if flag:
            # (seq_length, heads, -1) -> (heads, seq_length, -1)
            x = x.reshape(x.shape[0], heads, -1)
            x = x.transpose(1, 0, 2)
        else:
            # back to (seq_length, d_v)
            x = x.transpose(1, 0, 2)
            x = x.reshape(x.shape[0], d_v)
        return x

    mask = None
    if causal:  # lookahead_mask: 1 above the diagonal
        mask = np.triu(np.ones((x.shape[0], x.shape[0])), k=1)

    q_reshaped = reshape_tensor(x @ p["Wq"] + p["bq"], h, True)
    k_reshaped = reshape_tensor(x @ p["Wk"] + p["bk"], h, True)
    v_reshaped = reshape_tensor(x @ p["Wv"] + p["bv"], h, True)
    o_reshaped = dot_product_attention(q_reshaped, k_reshaped, v_reshaped, d_k, mask)
    output = reshape_tensor(o_reshaped, h, False)
    return output @ p["Wo"] + p["bo"]
