"""Blind round 70 (b70_02, issue 38): softmax and self_attention ported from
Jay-Jay-Tee/aiml-induction-task7-transformersgpt2 `multi.py`.

Mistakes:
1. self_attention (lines 108-109 of the file as delivered): the GPT causal mask
   `np.triu(np.ones((T, T)), k=1) * -1e9` is added always, whatever `causal` is (the source
   always masks). Wrong for the default causal=False whenever T > 1.
2. softmax (line 76): `np.exp(x) / np.sum(np.exp(x), ...)` without the max subtracted, as in the
   source. Inputs near 1000 overflow to nan.

Grader: at blind time (3f040026) and now, 89/110. Mistake 1 named on multi-head-attention and
no-causal-mask ("You applied GPT's causal mask although causal is False"; why-positions and
no-causal-mask's default check add their checklists); mistake 2 named on stable-softmax ("exp
overflowed ... Subtract the maximum along the axis first"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'attention_causal',
          'no-causal-mask': 'gpt_causal_mask',
          'why-positions': 'attention_not_equivariant',
          'stable-softmax': 'softmax_without_max'}


def softmax(x, axis=-1):
    return np.exp(x) / np.sum(np.exp(x), axis=axis, keepdims=True)


def self_attention(x, p, heads, causal=False):
    # X has dimensions (No. of tokens,dimensions of model)
    T, d_model = x.shape
    if d_model % heads != 0:
        raise ValueError("d_model must be divisible by num_heads")
    d_head = d_model // heads

    Q = x @ p["Wq"] + p["bq"]
    K = x @ p["Wk"] + p["bk"]
    V = x @ p["Wv"] + p["bv"]

    Q = Q.reshape(T, heads, d_head)
    K = K.reshape(T, heads, d_head)
    V = V.reshape(T, heads, d_head)

    out_heads = []
    for h in range(heads):
        q = Q[:, h]
        k = K[:, h]
        v = V[:, h]

        scores = (q @ k.T) / np.sqrt(d_head)

        mask = np.triu(np.ones((T, T)), k=1) * -1e9
        scores = scores + mask

        attention = softmax(scores, axis=1)

        out_heads.append(attention @ v)

    concat = np.concatenate(out_heads, axis=1)
    return concat @ p["Wo"] + p["bo"]
