"""Blind round 83 (b83_01, issue 38): layer_norm and self_attention ported from
dohyunnam/transformer-from-scratch-using-numpy `functions.py`. The delivered file's top-level
helpers `linear` and `scaled_dot_product` are nested in self_attention here, and its
`from numpy import matmul, sqrt, split` read as `np.matmul`, `np.sqrt` and `np.split`.

Mistakes:
1. self_attention (lines 119-124 of the file as delivered): one fused product with
   `[Wq | Wk | Wv]`, whose columns are (3, heads, d_h), reshaped to (T, heads, 3 * d_h) and
   split in three per head: with heads > 1 each head takes columns of the wrong projections.
   Right with one head only (encoder_block and vit_forward inherit it).
2. layer_norm (line 84): default eps 1e-5 (the source's) instead of 1e-6: wrong on
   small-variance rows with the default; an explicit eps is right.

Grader: at blind time (2774dae9) and now, 93/110. Mistake 1 named on multi-head-attention and
no-causal-mask ("q, k, v come from one fused product ... split per token as (heads, 3, d_h) where
its columns are (3, heads, d_h) ... head h takes columns of the wrong projections (right with one
head only). Reshape to (T, 3, heads, d_h) first."); mistake 2 named on layer-norm ("In
`layer_norm`, eps is 1e-05; the student API's is 1e-06."). vit-checkpoint's observation names
self_attention only (layer_norm's effect there is negligible). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:constant:layer_norm:eps=1e-05',
          'multi-head-attention': 'op:fused:self_attention:qkv-fused-heads-major',
          'no-causal-mask': 'op:fused:self_attention:qkv-fused-heads-major'}


def layer_norm(x, gamma, beta, eps=1e-5):
    """
    normalizes between each layer (center 0 std_dev 1)
    gamma & beta are learnable parameters
    """
    mean = x.mean(axis=-1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
    std = np.sqrt(var + eps)
    y = (x - mean) / std
    return gamma * y + beta


def self_attention(x, p, heads, causal=False):
    """
    splits matrix into num_head parts
    does attention on each (basically scale_dot_product)
    MultiHead(Q,K,V) = Concat(Head1...headh)Wo
    """
    def linear(x, w, b):
        """output = x * W + b"""
        return np.matmul(x, w) + b

    def scaled_dot_product(q, k, v, mask=None):
        """
        MatMul between Q and K, Scale, Mask (opt.), Softmax, MatMul output with V
        """
        scaling_factor = 1 / np.sqrt(k.shape[-1])
        scaled = np.matmul(q, k.transpose(0, 2, 1)) * scaling_factor
        if mask is not None:
            scaled = scaled + mask  # to block data leakage
        attention = softmax(scaled)
        values = np.matmul(attention, v)
        return values, attention

    sequence_length, d_model = x.shape
    if d_model % heads != 0:
        raise ValueError("d_model must be divisible by heads")
    head_dim = d_model // heads
    w_qkv = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1)
    b_qkv = np.concatenate([p["bq"], p["bk"], p["bv"]])
    qkv = linear(x, w_qkv, b_qkv)
    qkv = qkv.reshape(sequence_length, heads, 3 * head_dim)
    qkv = qkv.transpose(1, 0, 2)
    q, k, v = np.split(qkv, 3, axis=-1)
    mask = None
    if causal:
        mask = np.triu(np.full((sequence_length, sequence_length), -np.inf), k=1)
    values, attention = scaled_dot_product(q, k, v, mask)
    values = values.transpose(1, 0, 2).reshape(sequence_length, heads * head_dim)
    return linear(values, p["Wo"], p["bo"])
