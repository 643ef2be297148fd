"""A port of Keras's MultiHeadAttention that forgets the query's 1/sqrt(key_dim) scale and,
reading the output Dense's kernel only, the output bias bo. Two mistakes in one function."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:term:self_attention/attention:drop-math.sqrt(q.shape[-1])'
                                  '+op:term:self_attention/linear.4:drop-b',
          'no-causal-mask': 'op:term:self_attention/attention:drop-math.sqrt(q.shape[-1])'
                            '+op:term:self_attention/linear.4:drop-b'}


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads:
        raise ValueError("key_dim * num_heads must equal d")
    key_dim = d // heads
    query = np.einsum("td,dhk->htk", x, p["Wq"].reshape(d, heads, key_dim)) + \
        p["bq"].reshape(heads, 1, key_dim)
    key = np.einsum("td,dhk->htk", x, p["Wk"].reshape(d, heads, key_dim)) + \
        p["bk"].reshape(heads, 1, key_dim)
    value = np.einsum("td,dhk->htk", x, p["Wv"].reshape(d, heads, key_dim)) + \
        p["bv"].reshape(heads, 1, key_dim)
    scores = np.einsum("hqk,hsk->hqs", query, key)
    if causal:
        scores = np.where(np.tril(np.ones((T, T), dtype=bool)), scores, -np.inf)
    out = np.einsum("hqs,hsk->qhk", softmax(scores, axis=-1), value).reshape(T, d)
    return out @ p["Wo"]
