"""Blind round 43 (b43_10, issue 38): self_attention ported from BlazeWild/Hav-Cocap,
learn/multiheadattn.ipynb ("MULTI HEAD ATTENTION MATRIX OPERATIONS in DETAIL": `Q_total =
np.matmul(X, W_q)`, `split_heads`, `scores / np.sqrt(d_head)`, `attention_output.transpose(0,
2, 1, 3)`), for one (S, N) sequence.

Mistakes:
1. Q, K and V are `np.matmul(X, W_q)` etc. as in the notebook: bq, bk and bv are never added
   (the output projection keeps bo).

Grader: at blind time (b20830f) and now, named: "In `self_attention`, q, k and v are projected
without their biases: `x @ p['Wq']`, `x @ p['Wk']`, `x @ p['Wv']` ..." on every failed
no-causal-mask and multi-head-attention check; vit-checkpoint observes self_attention. Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {
    'no-causal-mask': 'op:qkv_bias_free:self_attention:qkv-without-bias',
    'multi-head-attention': 'op:qkv_bias_free:self_attention:qkv-without-bias',
}


def self_attention(x, p, heads, causal=False):
    """The notebook's (B, S, N) multi-head attention with B = 1."""
    X = np.asarray(x, dtype=float)[None]      # (B, S, N)
    B, S, N = X.shape
    H = heads
    if N % H:
        raise ValueError(f"width {N} is not divisible by {H} heads")
    d_head = N // H

    def split_heads(tensor, B, S, H, d_head):
        tensor = tensor.reshape(B, S, H, d_head)   # (B, S, N) -> (B, S, H, d_head)
        return tensor.transpose(0, 2, 1, 3)        # -> (B, H, S, d_head)

    # 3. linear projections
    Q_total = np.matmul(X, p["Wq"])
    K_total = np.matmul(X, p["Wk"])
    V_total = np.matmul(X, p["Wv"])
    Q = split_heads(Q_total, B, S, H, d_head)
    K = split_heads(K_total, B, S, H, d_head)
    V = split_heads(V_total, B, S, H, d_head)

    # 5. scaled dot-product attention
    K_T = K.transpose(0, 1, 3, 2)
    scores = np.matmul(Q, K_T)
    scaled_scores = scores / np.sqrt(d_head)
    if causal:
        scaled_scores = np.where(np.tril(np.ones((S, S), dtype=bool)), scaled_scores, -np.inf)
    weights = softmax(scaled_scores, axis=-1)
    attention_output = np.matmul(weights, V)

    # 6. concatenation and final projection
    out_tranposed = attention_output.transpose(0, 2, 1, 3)
    concat = out_tranposed.reshape(B, S, N)
    output = np.matmul(concat, p["Wo"]) + p["bo"]
    return output[0]
