"""Blind round 37 (b37_02, issue 38): PTSown0222/TensorTonic-Solutions
(transformers-multi-head-attention.py multi_head_attention, transformers-encoder-block.py
feed_forward / encoder_block).

Mistakes:
1. `self_attention`: `Q_proj = x @ W_q` etc. and `context @ W_o`: bq, bk, bv and bo are dropped.
2. `encoder_block`: its `feed_forward` uses ReLU (`np.maximum(0, hidden)`) instead of GELU; the
   block stays pre-LN.

Grader: at blind time (273cad6) and now, both named: "(in each of its 4 calls of `linear`), the
bias `b` is left out of `x @ W + b`" on no-causal-mask and multi-head-attention; "The MLP uses
ReLU; ViT's MLP uses GELU" on encoder-block (graded with the grader's self_attention standing
in). vit-checkpoint observes both. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:term:self_attention/linear*:drop-b',
          'multi-head-attention': 'op:term:self_attention/linear*:drop-b',
          'encoder-block': 'encoder_relu'}


def self_attention(x, p, heads, causal=False):
    """Compute multi-head attention."""
    seq_len, d_model = x.shape
    num_heads = heads
    if d_model % num_heads != 0:
        raise ValueError("d_model must be divisible by num_heads")
    d_k = d_model // num_heads

    Q_proj = x @ p["Wq"]  # Shape: (seq_len, d_model)
    K_proj = x @ p["Wk"]
    V_proj = x @ p["Wv"]

    Q_split = Q_proj.reshape(seq_len, num_heads, d_k).transpose(1, 0, 2)
    K_split = K_proj.reshape(seq_len, num_heads, d_k).transpose(1, 0, 2)
    V_split = V_proj.reshape(seq_len, num_heads, d_k).transpose(1, 0, 2)

    K_transposed = K_split.transpose(0, 2, 1)  # Shape: (num_heads, d_k, seq_length)
    attn_score = (Q_split @ K_transposed) / np.sqrt(d_k)
    if causal:
        attn_score = attn_score + np.triu(np.full((seq_len, seq_len), -np.inf), k=1)
    attn_prob = softmax(attn_score)
    context = attn_prob @ V_split
    context_concat = context.transpose(1, 0, 2).reshape(seq_len, d_model)
    output = context_concat @ p["Wo"]
    return output


def encoder_block(x, p, heads):
    """Complete encoder block: MHA + FFN with residuals (pre-LN, as in the lecture)."""
    def feed_forward(x, W1, b1, W2, b2):
        """Position-wise feed-forward network."""
        hidden = x @ W1 + b1
        relu_out = np.maximum(0, hidden)
        output = relu_out @ W2 + b2
        return output

    # Multi-Head Self-Attention
    attn_out = self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
    out_1 = x + attn_out

    # Feed Forward Network (FFN)
    ffn_out = feed_forward(layer_norm(out_1, p["ln2_g"], p["ln2_b"]), p["W1"], p["b1"], p["W2"], p["b2"])

    out_final = out_1 + ffn_out
    return out_final
