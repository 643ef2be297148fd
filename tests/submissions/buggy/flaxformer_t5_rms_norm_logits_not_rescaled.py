"""Blind round 33 (b33_05, issue 38): layer_norm and self_attention ported from google/flaxformer
(JAX/Flax, written with numpy): components/layer_norm.py T5LayerNorm and
components/attention/dense_attention.py (MultiHeadDotProductAttention with DenseGeneral (embed,
heads, kv) kernels, dot_product_attention). The helpers `dense_general` and
`dot_product_attention` are nested in self_attention.

Mistakes:
1. layer_norm: T5LayerNorm is an RMS norm, x / sqrt(mean(x^2) + eps) * gamma + beta: no mean
   subtracted. Right only on rows already centred.
2. self_attention: dot_product_attention with flaxformer's default rescale_logits=False (T5
   folds the scale into the initialisation): no 1/sqrt(d_h) on the scores. Wrong with one head.

Grader: at blind time (c4f83ef) and now, named: "the statistics are taken about zero, as RMSNorm
(T5, LLaMA) takes them" on layer-norm (the shift-invariance property gets its checklist), "The
scores are not scaled" (attention_no_scale) on no-causal-mask and multi-head-attention;
vit-checkpoint observes both. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:norm:layer_norm:rms-norm',
          'no-causal-mask': 'attention_no_scale',
          'multi-head-attention': 'attention_no_scale'}
ALIASES = ('mean_not_subtracted',)  # the shift-invariance property's checklist


def layer_norm(x, gamma, beta, eps=1e-6):
    """T5LayerNorm.__call__ with a scale (gamma) and a bias (beta); operates on the last axis."""
    x = np.asarray(x, np.float64)
    mean2 = np.mean(np.square(x), axis=-1, keepdims=True)
    y = x * (1.0 / np.sqrt(mean2 + eps))          # lax.rsqrt(mean2 + epsilon)
    scale = np.asarray(gamma, np.float64)
    return y * scale + beta


def self_attention(x, p, heads, causal=False):
    """MultiHeadDotProductAttention.__call__(inputs_q=x, inputs_kv=x) for one sequence."""
    inputs_q = np.asarray(x, np.float64)
    length, features = inputs_q.shape
    num_heads = heads
    if features % num_heads != 0:
        raise ValueError("Memory dimension must be divisible by number of heads.")
    head_dim = features // num_heads

    def dense_general(inputs, kernel, bias):
        # DenseGeneral(axis=-1, features=(num_heads, head_dim)), kernel_axes ('embed', 'heads', 'kv')
        kernel = kernel.reshape(features, num_heads, head_dim)
        return np.einsum('...d,dhk->...hk', inputs, kernel) + bias.reshape(num_heads, head_dim)

    def dot_product_attention(query, key, value, bias=None, rescale_logits=False):
        assert key.ndim == query.ndim == value.ndim, 'q, k, v must have same rank.'
        if rescale_logits:
            depth = query.shape[-1]
            query = query / np.sqrt(depth)
        # `attn_weights`: [heads, q_length, kv_length]
        attn_weights = np.einsum('qhd,khd->hqk', query, key)
        if bias is not None:
            attn_weights = attn_weights + bias
        attn_weights = softmax(attn_weights, axis=-1)
        # return weighted sum over values for each query position
        return np.einsum('hqk,khd->qhd', attn_weights, value)

    query = dense_general(inputs_q, p["Wq"], p["bq"])
    key = dense_general(inputs_q, p["Wk"], p["bk"])
    value = dense_general(inputs_q, p["Wv"], p["bv"])

    attention_bias = None
    if causal:
        mask = np.tril(np.ones((length, length), dtype=bool))
        attention_bias = np.where(mask, 0.0, -1e10)

    x = dot_product_attention(query, key, value, bias=attention_bias)

    # Back to the original inputs dimensions: DenseGeneral(axis=(-2, -1)), kernel_axes ('heads', 'kv', 'embed')
    out_kernel = np.asarray(p["Wo"]).reshape(num_heads, head_dim, features)
    return np.einsum('qhd,hdf->qf', x, out_kernel) + p["bo"]
