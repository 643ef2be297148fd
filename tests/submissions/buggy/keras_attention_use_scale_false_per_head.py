"""Blind round 28 (b28_11, issue 38): self_attention ported from tf.keras.layers.Attention
(Luong-style dot-product attention: scores = matmul(query, key, transpose_b=True), scaled only
`if self.use_scale`, use_scale=False by default; the causal mask from _lower_triangular_mask,
scores -= 1e9 * (1 - mask)), called once per head. The student's top-level helpers
`_lower_triangular_mask` and `_keras_attention` are nested in self_attention here: the builder
replaces only the solution's own definitions.

Mistakes:
1. self_attention never scales the scores (Keras' default use_scale=False): wrong on every
   input, with any number of heads.

Grader: at blind time and now, named: the scores not scaled (attention_no_scale) on
no-causal-mask and multi-head-attention; vit-checkpoint observes the broken self_attention.
Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'attention_no_scale',
          'multi-head-attention': 'attention_no_scale'}


def self_attention(x, p, heads, causal=False):
    def _lower_triangular_mask(shape):
        row_index = np.cumsum(np.ones(shape, dtype=np.int32), axis=-2)
        col_index = np.cumsum(np.ones(shape, dtype=np.int32), axis=-1)
        return row_index >= col_index

    def _keras_attention(query, value, key, use_causal_mask=False):
        scores = np.matmul(query, key.T)
        if use_causal_mask:
            mask = _lower_triangular_mask(scores.shape)
            scores = scores - 1.0e9 * (1.0 - mask.astype(scores.dtype))
        weights = softmax(scores, axis=-1)
        return np.matmul(weights, value)

    T, d = x.shape
    if d % heads:
        raise ValueError(f"{d} not divisible by {heads}")
    dh = d // heads
    q = x @ p["Wq"] + p["bq"]
    k = x @ p["Wk"] + p["bk"]
    v = x @ p["Wv"] + p["bv"]
    outs = []
    for h in range(heads):
        cols = slice(h * dh, (h + 1) * dh)
        outs.append(_keras_attention(q[:, cols], v[:, cols], k[:, cols], use_causal_mask=causal))
    return np.concatenate(outs, axis=-1) @ p["Wo"] + p["bo"]
