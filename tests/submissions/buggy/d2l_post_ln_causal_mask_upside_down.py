"""Blind round 4 (b4_04, issue 38), a port of d2l.ai's MultiHeadAttention and
TransformerEncoderBlock with two mistakes: encoder_block is post-LN like d2l's AddNorm,
x = LN(x + attn(x)), then LN(x + ffn(x)), not the lecture's pre-LN block (every input);
self_attention's causal mask keeps the upper triangle, np.triu, so each token sees itself and the
later tokens, not the earlier ones (causal=True only).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'encoder-block': 'encoder_post_ln',
          'no-causal-mask': 'attention_mask_transposed'}


def self_attention(x, p, heads, causal=False):
    """d2l MultiHeadAttention with transpose_qkv / transpose_output, for one sequence."""
    T, d = x.shape
    if d % heads:
        raise ValueError("num_hiddens must be divisible by num_heads")

    def transpose_qkv(X):
        X = X.reshape(X.shape[0], heads, -1)
        return X.transpose(1, 0, 2)

    def transpose_output(X):
        return X.transpose(1, 0, 2).reshape(X.shape[1], -1)

    queries = transpose_qkv(x @ p["Wq"] + p["bq"])
    keys = transpose_qkv(x @ p["Wk"] + p["bk"])
    values = transpose_qkv(x @ p["Wv"] + p["bv"])
    dk = queries.shape[-1]
    scores = np.einsum('hqd,hkd->hqk', queries, keys) / math.sqrt(dk)
    if causal:
        keep = np.triu(np.ones((T, T)))
        scores = np.where(keep == 1, scores, -1e6)
    attention_weights = softmax(scores, axis=-1)
    output = np.einsum('hqk,hkd->hqd', attention_weights, values)
    return transpose_output(output) @ p["Wo"] + p["bo"]


def encoder_block(x, p, heads):
    """d2l TransformerEncoderBlock: AddNorm after attention and after the position-wise FFN."""
    def add_norm(X, Y, g, b):
        return layer_norm(X + Y, g, b)

    def ffn(X):
        return gelu(X @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]

    Y = add_norm(x, self_attention(x, p, heads), p["ln1_g"], p["ln1_b"])
    return add_norm(Y, ffn(Y), p["ln2_g"], p["ln2_b"])
