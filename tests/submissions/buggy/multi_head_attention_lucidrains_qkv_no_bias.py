"""lucidrains' vit-pytorch ported faithfully: its to_qkv is nn.Linear(dim, inner_dim * 3,
bias=False), so q, k and v get no bias (bq, bk, bv are never added). Without bk every score of
a query shifts by the same q . bk, which softmax cancels: only bq and bv change the outputs, and
those two are what the grader can name.
Since round 36 (issue 38) the attention's biases are named as one slip: "q, k and v are
projected without their biases" (op:qkv_bias_free), where a pair named bq's and bv's.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:qkv_bias_free:self_attention:qkv-without-bias',
          'no-causal-mask': 'op:qkv_bias_free:self_attention:qkv-without-bias'}


def self_attention(x, p, heads, causal=False):
    n, dim = x.shape
    if dim % heads:
        raise ValueError("heads must divide dim")
    dim_head = dim // heads
    qkv = [x @ p["Wq"], x @ p["Wk"], x @ p["Wv"]]
    q, k, v = (t.reshape(n, heads, dim_head).transpose(1, 0, 2) for t in qkv)
    dots = q @ k.transpose(0, 2, 1) * dim_head ** -0.5
    if causal:
        dots = np.where(np.tril(np.ones((n, n), dtype=bool)), dots, -np.inf)
    out = softmax(dots, axis=-1) @ v
    return out.transpose(1, 0, 2).reshape(n, dim) @ p["Wo"] + p["bo"]
