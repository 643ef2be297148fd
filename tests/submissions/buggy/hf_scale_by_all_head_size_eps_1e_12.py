"""Blind round 4 (b4_03, issue 38), a port of Hugging Face's ViTSelfAttention / ViTLayer with two
mistakes: self_attention divides the scores by sqrt(all_head_size) = sqrt(d) instead of
sqrt(attention_head_size) = sqrt(d_h) (wrong with several heads only); layer_norm's default eps
is ViTConfig's layer_norm_eps = 1e-12, not the lecture's 1e-6 (wrong only when eps is not passed
and a token's variance is tiny).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:constant:layer_norm:eps=below-1e-09',
          'multi-head-attention': 'attention_scale_d',
          'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(d)'}


def layer_norm(x, gamma, beta, eps=1e-12):
    """nn.LayerNorm(hidden_size, eps=config.layer_norm_eps) over the last axis."""
    mu = np.mean(x, axis=-1, keepdims=True)
    sigma2 = np.mean((x - mu) ** 2, axis=-1, keepdims=True)
    return gamma * (x - mu) / np.sqrt(sigma2 + eps) + beta


def self_attention(x, p, heads, causal=False):
    """ViTSelfAttention + ViTSelfOutput for one (seq_len, hidden_size) sequence."""
    seq_len, hidden_size = x.shape
    if hidden_size % heads != 0:
        raise ValueError(f"The hidden size ({hidden_size}) is not a multiple of the number of attention heads ({heads})")
    attention_head_size = hidden_size // heads
    all_head_size = heads * attention_head_size

    def transpose_for_scores(t):
        return t.reshape(seq_len, heads, attention_head_size).transpose(1, 0, 2)

    query_layer = transpose_for_scores(x @ p["Wq"] + p["bq"])
    key_layer = transpose_for_scores(x @ p["Wk"] + p["bk"])
    value_layer = transpose_for_scores(x @ p["Wv"] + p["bv"])
    attention_scores = query_layer @ key_layer.transpose(0, 2, 1)
    attention_scores = attention_scores / math.sqrt(all_head_size)
    if causal:
        mask = np.triu(np.ones((seq_len, seq_len), dtype=bool), k=1)
        attention_scores = np.where(mask, np.finfo(attention_scores.dtype).min, attention_scores)
    attention_probs = softmax(attention_scores, axis=-1)
    context_layer = (attention_probs @ value_layer).transpose(1, 0, 2).reshape(seq_len, all_head_size)
    return context_layer @ p["Wo"] + p["bo"]
