"""Blind round 12 (b12_12, issue 38): Source style ported: PyTorch (torch.softmax(x, dim=-1) and
F.scaled_dot_product_attention(q, k, v, is_causal=False)), keyword names kept from torch.

Mistake 1 (softmax): the optional axis parameter is named `dim` (torch) instead of `axis`; the
body is right. Shows only when a caller passes the axis by keyword (softmax(x, axis=0) raises
TypeError); positional calls are right.
Mistake 2 (self_attention): the optional mask flag is named `is_causal` (torch SDPA) instead of
`causal`; the body is right. Shows only when a caller passes causal= by keyword (TypeError);
the default (no mask) and positional calls are right.

Grader: both renamed keywords are said as such (signature_differs: "Your `softmax` has no parameter
`axis` ... rename yours"; the same for `causal`), an observation, so the file stays here (like
lucidrains_assert_tiling_timm_class_token_keyword).
Since session 15 a call refused as Python bound its arguments is a named mistake (signature_differs: Python's binding saw the parameters differ): every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'signature_differs',
          'no-causal-mask': 'signature_differs'}


def softmax(x, dim=-1):
    x_max = np.max(x, axis=dim, keepdims=True)
    e = np.exp(x - x_max)
    return e / e.sum(axis=dim, keepdims=True)


def self_attention(x, p, heads, is_causal=False):
    L, E = x.shape
    if E % heads:
        raise ValueError(f"embed_dim {E} must be divisible by num_heads {heads}")
    head_dim = E // heads
    q = (x @ p["Wq"] + p["bq"]).reshape(L, heads, head_dim).transpose(1, 0, 2)
    k = (x @ p["Wk"] + p["bk"]).reshape(L, heads, head_dim).transpose(1, 0, 2)
    v = (x @ p["Wv"] + p["bv"]).reshape(L, heads, head_dim).transpose(1, 0, 2)
    scale_factor = 1 / math.sqrt(head_dim)
    attn_bias = np.zeros((L, L))
    if is_causal:
        temp_mask = np.tril(np.ones((L, L), dtype=bool))
        attn_bias = np.where(temp_mask, 0.0, -np.inf)
    attn_weight = q @ k.transpose(0, 2, 1) * scale_factor + attn_bias
    attn_weight = softmax(attn_weight, dim=-1)
    out = attn_weight @ v
    return out.transpose(1, 0, 2).reshape(L, E) @ p["Wo"] + p["bo"]
