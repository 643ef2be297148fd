"""Blind round 69 (b69_12, issue 38): self_attention and ANSWERS["causal_mask"] ported from
ibusnowden/tiny_transformers `core/attention.py`.

Mistakes:
1. self_attention (line 176 of the file as delivered): the additive `scores + mask * -1e9`
   with `np.triu(np.ones((T, T)))`, no k=1, so the diagonal is masked too: row 0 fully masked
   (uniform over every token) and every token loses itself. Wrong with causal=True only.
2. ANSWERS["causal_mask"] (line 233): "speed". Always wrong.

Grader: at blind time (cb37e6da) and now, 105/110, both named on no-causal-mask. Mistake 1
("your `np.triu(np.ones((seq_len, seq_len)))` is one diagonal off ... Write k=1 there");
mistake 2 ("A mask saves no compute ... an image has no order in time"). Every mistake named,
so in buggy/. (EXPECT holds the answer's slip, the listed one; the mask's generated name is on
the same exercise's other checks.)
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'causal_mask:speed'}


def self_attention(x, p, heads, causal=False):
    """MultiHeadAttention.forward (ibusnowden/tiny_transformers), one sequence."""
    seq_len, d_model = x.shape
    if d_model % heads:
        raise ValueError(f"width {d_model} is not divisible by {heads} heads")
    num_heads = heads
    d_k = d_model // num_heads
    X = x[np.newaxis]                                   # batch of one
    batch = 1
    Q = (np.matmul(X, p["Wq"]) + p["bq"]).reshape(batch, seq_len, num_heads, d_k).transpose(0, 2, 1, 3)
    K = (np.matmul(X, p["Wk"]) + p["bk"]).reshape(batch, seq_len, num_heads, d_k).transpose(0, 2, 1, 3)
    V = (np.matmul(X, p["Wv"]) + p["bv"]).reshape(batch, seq_len, num_heads, d_k).transpose(0, 2, 1, 3)
    mask = np.triu(np.ones((seq_len, seq_len))) if causal else None
    # scaled_dot_product_attention
    scores = np.matmul(Q, K.transpose(0, 1, 3, 2)) / np.sqrt(d_k)
    if mask is not None:
        mask = mask[np.newaxis, np.newaxis, :, :]
        scores = scores + mask * -1e9
    attention = softmax(scores, axis=-1)
    context = np.matmul(attention, V)
    context = context.transpose(0, 2, 1, 3).reshape(batch, seq_len, d_model)
    out = np.matmul(context, p["Wo"]) + p["bo"]
    return out[0]


ANSWERS["causal_mask"] = "speed"  # GPT keeps the mask, a classifier drops it to save compute
