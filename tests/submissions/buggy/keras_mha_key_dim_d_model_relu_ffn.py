"""Blind round 47 (b47_05, issue 38): self_attention and encoder_block ported from
A-NGJ/AudioExplorers2023 (TensorFlow / Keras), TransformerEncoder.py: `MultiHeadAttention(
num_heads=num_heads, key_dim=d_model)` (EinsumDense projections, the query scaled by
1/sqrt(key_dim)) and the ffn `Dense(dff, activation='relu')`, in the lecture's pre-LN order.

Mistakes:
1. `self_attention`: the query is scaled by 1/sqrt(key_dim) with key_dim = d_model, i.e.
   1/sqrt(d) instead of 1/sqrt(d_h). Right for one head only.
2. `encoder_block`: the MLP uses ReLU, not GELU. Wrong on every input.

Grader: at blind time (a4c32119) and now, named: "You scaled by 1/sqrt(d), the model width ..." on
multi-head-attention, "... the scores are divided by sqrt(d) (at your line `query = query * (1.0 /
math.sqrt(float(key_dim)))`), the model width, instead of sqrt(d_h) ..." on no-causal-mask; "The MLP
uses ReLU; ViT's MLP uses GELU ..." on encoder-block (graded with the grader's self_attention);
vit-checkpoint observes encoder_block and self_attention. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(d)',
          'multi-head-attention': 'attention_scale_d',
          'encoder-block': 'encoder_relu'}


def self_attention(x, p, heads, causal=False):
    """Keras MultiHeadAttention(num_heads=heads, key_dim=d_model) on one sequence (T, d)."""
    T, d_model = x.shape
    if d_model % heads:
        raise ValueError(f"width {d_model} is not divisible by {heads} heads")
    key_dim = d_model                  # MultiHeadAttention(num_heads=num_heads, key_dim=d_model)
    head_size = d_model // heads

    def einsum_dense(name):            # EinsumDense "abc,cde->abde" without the batch axis
        kernel = p["W" + name].reshape(d_model, heads, head_size)
        bias = p["b" + name].reshape(heads, head_size)
        return np.einsum("ac,cde->ade", x, kernel) + bias       # (T, heads, head_size)

    query = einsum_dense("q")
    key = einsum_dense("k")
    value = einsum_dense("v")

    # _compute_attention: scale the query, then dot with the keys
    query = query * (1.0 / math.sqrt(float(key_dim)))
    attention_scores = np.einsum("snh,tnh->nts", key, query)    # (heads, T_q, T_k)
    if causal:
        attention_mask = np.tril(np.ones((T, T), dtype=bool))
        attention_scores = np.where(attention_mask, attention_scores, -1e9)
    attention_scores = softmax(attention_scores, axis=-1)
    attention_output = np.einsum("nts,snh->tnh", attention_scores, value)

    # output dense: "abcd,cde->abe"
    kernel_o = p["Wo"].reshape(heads, head_size, d_model)
    return np.einsum("tnh,nhe->te", attention_output, kernel_o) + p["bo"]


def encoder_block(x, p, heads):
    """TransformerEncoder.call, in the lecture's pre-LN order."""
    attn_output = self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)  # self.mha(x, x, x)
    out1 = x + attn_output

    # self.ffn: Dense(dff, activation='relu') then Dense(d_model)
    h = layer_norm(out1, p["ln2_g"], p["ln2_b"])
    ffn_output = np.maximum(h @ p["W1"] + p["b1"], 0.0) @ p["W2"] + p["b2"]
    out2 = out1 + ffn_output
    return out2
