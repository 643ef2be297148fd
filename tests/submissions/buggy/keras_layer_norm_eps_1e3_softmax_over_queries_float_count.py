"""Blind round 23 (b23_09, issue 38): attention_scores, layer_norm and self_attention ported from
TensorFlow / Keras 2 (`tf.keras.layers.MultiHeadAttention`: `query * 1/sqrt(key_dim)`, the
`_dot_product_equation` einsum, `_masked_softmax` over `_attention_axes`, a causal mask from
`band_part(ones, -1, 0)` as a -1e9 adder; `tf.keras.layers.LayerNormalization`; counts as
`tf.square(tf.cast(T, tf.float32))`).

Mistakes:
1. layer_norm's default eps is 1e-3, LayerNormalization's `epsilon`, instead of 1e-6.
2. self_attention's scores come out of the einsum as (heads, query, key) and the softmax is taken
   over axis -2, the query axis, instead of the key axis (the port's docstring calls the einsum's
   output (heads, key, query): the mistake is the softmax's axis).
3. attention_scores computes the count in float32 and returns a float.

Grader: at blind time and now, all three named: eps 0.001 where the lecture's is 1e-06 on
layer-norm; `softmax(scores, axis=-2)` (`axis=1` until round 68) in place of `softmax(scores)` on no-causal-mask and "The
softmax runs over the queries" on multi-head-attention; the count `T * T` coming out as a float on
attention-cost; vit-checkpoint observes the broken functions. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:constant:layer_norm:eps=0.001',
          'no-causal-mask': 'op:axis:self_attention/attention:softmax.axis=-2',
          'multi-head-attention': 'attention_softmax_wrong_axis',
          'attention-cost': 'op:count_as_float:attention_scores:count-as-float'}


def attention_scores(num_tokens):
    return np.square(np.float32(num_tokens)).item()


def layer_norm(x, gamma, beta, eps=1e-3):
    mean = np.mean(x, axis=-1, keepdims=True)
    variance = np.mean(np.square(x - mean), axis=-1, keepdims=True)
    inv = 1.0 / np.sqrt(variance + eps)
    return (x - mean) * inv * gamma + beta


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads:
        raise ValueError("num_heads must divide the feature size")
    key_dim = d // heads
    query = (x @ p["Wq"] + p["bq"]).reshape(T, heads, key_dim)   # "abcd": (T, N, H)
    key = (x @ p["Wk"] + p["bk"]).reshape(T, heads, key_dim)
    value = (x @ p["Wv"] + p["bv"]).reshape(T, heads, key_dim)
    query = np.multiply(query, 1.0 / math.sqrt(float(key_dim)))
    attention_scores_ = np.einsum("ecd,bcd->cbe", key, query)   # (N, T_q, S_k)
    if causal:
        attention_mask = np.tril(np.ones((T, T)))                 # band_part(ones, -1, 0)
        adder = (1.0 - attention_mask) * -1e9
        attention_scores_ = attention_scores_ + adder
    attention_probs = softmax(attention_scores_, axis=-2)
    attention_output = np.einsum("cbe,ecd->bcd", attention_probs, value)
    return attention_output.reshape(T, d) @ p["Wo"] + p["bo"]
