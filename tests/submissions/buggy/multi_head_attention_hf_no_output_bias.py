"""HF modeling_vit's ViTSelfOutput ported without its bias: dense(x) as x @ Wo only."""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:term:self_attention/linear.4:drop-b'}


def self_attention(x, p, heads, causal=False):
    seq_len, hidden_size = x.shape
    if hidden_size % heads:
        raise ValueError("The hidden size is not a multiple of the number of attention heads")
    head_size = hidden_size // heads

    def transpose_for_scores(t):
        return t.reshape(seq_len, heads, head_size).transpose(1, 0, 2)

    query = transpose_for_scores(x @ p["Wq"] + p["bq"])
    key = transpose_for_scores(x @ p["Wk"] + p["bk"])
    value = transpose_for_scores(x @ p["Wv"] + p["bv"])
    scores = query @ key.transpose(0, 2, 1) / math.sqrt(head_size)
    if causal:
        scores = np.where(np.tril(np.ones((seq_len, seq_len), dtype=bool)), scores, -np.inf)
    context = softmax(scores, axis=-1) @ value
    context = context.transpose(1, 0, 2).reshape(seq_len, hidden_size)
    return context @ p["Wo"]
