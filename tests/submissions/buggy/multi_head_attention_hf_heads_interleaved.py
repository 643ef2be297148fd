"""HF's transpose_for_scores ported with the two new axes in the other order,
reshape(T, head_size, heads): each head takes every heads-th column (right with one head)."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'attention_heads_interleaved'}


def self_attention(x, p, heads, causal=False):
    T, hidden = x.shape
    if hidden % heads:
        raise ValueError("hidden size is not a multiple of the number of attention heads")
    head_size = hidden // heads

    def transpose_for_scores(t):
        return t.reshape(T, head_size, heads).transpose(2, 0, 1)

    query_layer = transpose_for_scores(x @ p["Wq"] + p["bq"])
    key_layer = transpose_for_scores(x @ p["Wk"] + p["bk"])
    value_layer = transpose_for_scores(x @ p["Wv"] + p["bv"])
    scores = query_layer @ key_layer.transpose(0, 2, 1) / math.sqrt(head_size)
    if causal:
        scores = np.where(np.tril(np.ones((T, T), dtype=bool)), scores, -np.inf)
    context = softmax(scores, axis=-1) @ value_layer
    context = context.transpose(1, 2, 0).reshape(T, hidden)
    return context @ p["Wo"] + p["bo"]
