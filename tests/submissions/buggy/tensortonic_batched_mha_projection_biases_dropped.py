"""Blind round 48 (b48_04, issue 38): self_attention ported from PTSown0222/TensorTonic-Solutions,
transformers-multi-head-attention/transformers-multi-head-attention.py (batched numpy MHA: `Q @
W_q`, heads split by reshape/transpose, `context_concat @ W_o`). The port: `x[None]` as Q = K = V,
a causal `np.where(tril, ..., -inf)` added, and `output[0]` returned.

Mistakes:
1. The biases are dropped: the source has no bq, bk, bv, bo and the port never adds them. Wrong
   whenever a bias is non-zero (all heads, causal or not); with all biases zero it equals the
   solution.

Grader: at blind time (4b7c886d) and now, named: "In `self_attention` (in each of the lecture's 4
calls of `linear`), the bias `b` is left out of `x @ W + b`." on all 5 failed checks of
no-causal-mask and multi-head-attention; vit-checkpoint observes self_attention. Every mistake
named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:term:self_attention/linear*:drop-b',
          'multi-head-attention': 'op:term:self_attention/linear*:drop-b'}


def self_attention(x, p, heads, causal=False):
    """multi_head_attention(Q, K, V, W_q, W_k, W_v, W_o, num_heads) on a batch of one, a causal mask added."""
    Q = K = V = x[np.newaxis]            # (1, seq_len, d_model)
    W_q, W_k, W_v, W_o = p["Wq"], p["Wk"], p["Wv"], p["Wo"]
    num_heads = heads
    batch_size, seq_len, d_model = Q.shape
    if d_model % num_heads:
        raise ValueError(f"d_model {d_model} is not divisible by num_heads {num_heads}")
    d_k = d_model // num_heads

    Q_proj = Q @ W_q  # Shape: (batch, seq_len, d_model)
    K_proj = K @ W_k
    V_proj = V @ W_v

    Q_split = Q_proj.reshape(batch_size, seq_len, num_heads, d_k).transpose(0, 2, 1, 3)
    K_split = K_proj.reshape(batch_size, seq_len, num_heads, d_k).transpose(0, 2, 1, 3)
    V_split = V_proj.reshape(batch_size, seq_len, num_heads, d_k).transpose(0, 2, 1, 3)

    K_transposed = K_split.transpose(0, 1, 3, 2)  # Shape: (batch_size, num_heads, d_k, seq_length)
    attn_score = (Q_split @ K_transposed) / np.sqrt(d_k)
    if causal:
        keep = np.tril(np.ones((seq_len, seq_len), dtype=bool))
        attn_score = np.where(keep, attn_score, -np.inf)
    attn_prob = softmax(attn_score)
    context = attn_prob @ V_split
    context_concat = context.transpose(0, 2, 1, 3).reshape(batch_size, seq_len, d_model)
    output = context_concat @ W_o
    return output[0]
