"""Blind round 3 (b3_07, issue 38), a port of d2l.ai's MultiHeadAttention (transpose_qkv /
transpose_output / DotProductAttention, batch axis dropped) with two mistakes in self_attention:
transpose_output merges the heads by X.reshape(T, -1) straight from (heads, T, d_h), without the
permute back to (T, heads, d_h) (right with heads=1); the causal mask is applied by multiplying
the scores by tril(ones), so the hidden scores are 0, not -inf, and still weigh exp(0) in the
softmax. The permutation property's verdict on the scrambled merge is an alias.
(The submission's module-level helpers are nested in the function that uses them
here: a fixture replaces only the solution's names.)
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed+op:infinity:self_attention/attention:minus-inf-as-0',
          'multi-head-attention': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed'}
ALIASES = ('attention_not_equivariant',)


def self_attention(x, p, heads, causal=False):
    """d2l MultiHeadAttention.forward(queries=keys=values=x)."""
    def _transpose_qkv(X, num_heads):
        """d2l transpose_qkv without the batch axis: (T, d) -> (heads, T, d / heads)."""
        X = X.reshape(X.shape[0], num_heads, -1)
        return X.transpose(1, 0, 2)

    def _transpose_output(X, num_heads):
        """d2l transpose_output without the batch axis: (heads, T, d_h) -> (T, d)."""
        return X.reshape(X.shape[1], -1)

    def _dot_product_attention(queries, keys, values, mask=None):
        d = queries.shape[-1]
        scores = queries @ keys.transpose(0, 2, 1) / math.sqrt(d)
        if mask is not None:
            scores = scores * mask
        return softmax(scores, axis=-1) @ values

    T, d = x.shape
    if d % heads != 0:
        raise ValueError("num_hiddens must be divisible by num_heads")
    queries = _transpose_qkv(x @ p["Wq"] + p["bq"], heads)
    keys = _transpose_qkv(x @ p["Wk"] + p["bk"], heads)
    values = _transpose_qkv(x @ p["Wv"] + p["bv"], heads)
    mask = np.tril(np.ones((T, T))) if causal else None
    output = _dot_product_attention(queries, keys, values, mask)
    output_concat = _transpose_output(output, heads)
    return output_concat @ p["Wo"] + p["bo"]
