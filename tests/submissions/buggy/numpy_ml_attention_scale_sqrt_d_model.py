"""Blind round 78 (b78_04, issue 38): self_attention ported from
mylife126/Numpy-Machine-LearningAlgorithm-Implementations `high_frequent_MLquestions/attention.py`
(the head split from its multihead_attention.py).

Mistakes:
1. self_attention (line 116 of the file as delivered): `k = np.sqrt(d_model)`, the scores scaled
   by 1/sqrt(d) instead of 1/sqrt(d_h) (the single-head code's `sqrt(self.d_k)` with d_k the
   model width): right for one head, wrong whenever heads > 1, in encoder_block and vit_forward
   too.

Grader: at blind time (ddfccf96) and now, 96/110. Mistake 1 named on multi-head-attention ("You
scaled by 1/sqrt(d), the model width. Each head's dot products are over d_h = d // heads numbers:
scale by 1/sqrt(d_h).") and no-causal-mask ("In `self_attention` (where each head's attention
weights are computed and applied to its values), the scores are divided by sqrt(d) (at your line `k
= np.sqrt(d_model)`), the model width, instead of sqrt(d_h)"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'attention_scale_d',
          'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(d)'}


def self_attention(X, p, heads, causal=False):
    """
    X -> sequence length (m), model_dim
    """
    m, d_model = X.shape
    if d_model % heads != 0:
        raise ValueError("d_model must be divisible by num_heads")
    d_k = d_model // heads

    Q = X @ p["Wq"] + p["bq"]  # m by dq
    K = X @ p["Wk"] + p["bk"]  # m by dk
    V = X @ p["Wv"] + p["bv"]  # m by dv

    # -> (m, num_heads, d_k) -> (num_heads, m, d_k)
    Q = Q.reshape(m, heads, d_k).transpose(1, 0, 2)
    K = K.reshape(m, heads, d_k).transpose(1, 0, 2)
    V = V.reshape(m, heads, d_k).transpose(1, 0, 2)

    k = np.sqrt(d_model)

    A_ = Q @ np.transpose(K, (0, 2, 1)) / k  # heads, sequence length, sequence length
    if causal:
        A_ = np.where(np.tril(np.ones((m, m))) == 1, A_, -np.inf)
    weights = softmax(A_)  # each row is an attention distribution

    context = np.matmul(weights, V)  # heads, m, d_k
    # combine heads (concat) -> (m, heads * d_v)
    context = context.transpose(1, 0, 2).reshape(m, heads * d_k)
    return context @ p["Wo"] + p["bo"]
