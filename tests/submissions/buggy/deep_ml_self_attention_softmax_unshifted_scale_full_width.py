"""Blind round 82 (b82_12, issue 38): softmax and self_attention ported from
azure-123/deep-ml-solutions `DeepLearning/53-Self-AttentionMechanism.py`. The delivered file's
top-level helper `compute_qkv` is nested in self_attention here.

Mistakes:
1. softmax (line 76 of the file as delivered): `np.exp(x) / np.sum(np.exp(x), axis=axis,
   keepdims=True)` without subtracting the max: nan for inputs near 1000 (the axis is right).
2. self_attention (line 97): `d_k = K.shape[1]`, the full width d, so the scores are scaled by
   1/sqrt(d) instead of 1/sqrt(d_h): wrong with heads > 1 only (encoder_block and vit_forward
   inherit it).

Grader: at blind time (ee59f1b1) and now, 92/110. Mistake 1 named on stable-softmax ("exp
overflowed ... Subtract the maximum along the axis first"); mistake 2 named on
multi-head-attention ("You scaled by 1/sqrt(d), the model width ... scale by 1/sqrt(d_h)") and
no-causal-mask ("divided by sqrt(d) (at your line `scores = np.matmul(q, k.T) /
np.sqrt(d_k)`), the model width, instead of sqrt(d_h)"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'softmax_without_max',
          'multi-head-attention': 'attention_scale_d',
          'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(d)'}


def softmax(x, axis=-1):
    return np.exp(x) / np.sum(np.exp(x), axis=axis, keepdims=True)


def self_attention(x, p, heads, causal=False):
    def compute_qkv(X, p):
        Q = np.dot(X, p["Wq"]) + p["bq"]
        K = np.dot(X, p["Wk"]) + p["bk"]
        V = np.dot(X, p["Wv"]) + p["bv"]
        return Q, K, V

    T, d = x.shape
    if d % heads:
        raise ValueError("heads must divide d")
    Q, K, V = compute_qkv(x, p)
    d_k = K.shape[1]
    dh = d // heads
    outs = []
    for h in range(heads):
        q, k, v = (M[:, h * dh:(h + 1) * dh] for M in (Q, K, V))
        scores = np.matmul(q, k.T) / np.sqrt(d_k)
        if causal:
            scores = np.where(np.tril(np.ones((T, T))) == 1, scores, -np.inf)
        attention_weights = softmax(scores, axis=1)
        outs.append(np.matmul(attention_weights, v))
    return np.concatenate(outs, axis=1) @ p["Wo"] + p["bo"]
