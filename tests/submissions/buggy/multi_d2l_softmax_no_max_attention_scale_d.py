"""d2l.ai's softmax (exp, then divide by the sum: no max subtracted) and its DotProductAttention
ported with `d = queries.shape[-1]` read before the heads are split: the scores are divided by
sqrt(d), the model width, not sqrt(d_h). Two mistakes in two functions."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'softmax_without_max', 'multi-head-attention': 'attention_scale_d',
          'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(d)'}


def softmax(x, axis=-1):
    X_exp = np.exp(x)
    partition = X_exp.sum(axis=axis, keepdims=True)
    return X_exp / partition


def self_attention(x, p, heads, causal=False):
    queries, keys, values = (x @ p[f"W{n}"] + p[f"b{n}"] for n in "qkv")
    T, d = queries.shape
    if d % heads:
        raise ValueError("num_hiddens must be divisible by num_heads")

    def transpose_qkv(X):
        return X.reshape(T, heads, -1).transpose(1, 0, 2)

    scores = transpose_qkv(queries) @ transpose_qkv(keys).transpose(0, 2, 1) / math.sqrt(d)
    if causal:
        scores = np.where(np.tril(np.ones((T, T), dtype=bool)), scores, -np.inf)
    out = softmax(scores, axis=-1) @ transpose_qkv(values)
    return out.transpose(1, 0, 2).reshape(T, d) @ p["Wo"] + p["bo"]
