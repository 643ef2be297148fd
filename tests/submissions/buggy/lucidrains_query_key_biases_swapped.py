"""Blind round 16 (b16_09, issue 38): self_attention ported from lucidrains' vit-pytorch
Attention, with separate biased projections.

Mistakes:
1. The query and key biases are swapped: q adds p["bk"] and k adds p["bq"].

Grader: at blind time and now, the query half is named ("`p['bk']` is read where `p['bq']`
belongs", true of the file); k reading bq is not mentioned, and cannot be: a bias added to every
key adds q . b to each of a query's scores alike, which the softmax takes away, so no output of
any call shows which bias the keys add (the named rewrite reproduces every one). The file's every
mistake that shows is named: in buggy/ since session 16 (in unnamed/ before).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:parameter:self_attention:bq-as-bk',
          'no-causal-mask': 'op:parameter:self_attention:bq-as-bk'}


def self_attention(x, p, heads, causal=False):
    """lucidrains vit-pytorch Attention, with separate biased projections."""
    n, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    dim_head = d // heads
    scale = dim_head ** -0.5
    q = x @ p["Wq"] + p["bk"]
    k = x @ p["Wk"] + p["bq"]
    v = x @ p["Wv"] + p["bv"]
    q, k, v = (t.reshape(n, heads, dim_head).transpose(1, 0, 2) for t in (q, k, v))
    dots = np.einsum("hid,hjd->hij", q, k) * scale
    if causal:
        mask = np.triu(np.ones((n, n), dtype=bool), 1)
        dots = np.where(mask, -np.finfo(dots.dtype).max, dots)
    attn = softmax(dots, axis=-1)
    out = np.einsum("hij,hjd->hid", attn, v)
    out = out.transpose(1, 0, 2).reshape(n, d)
    return out @ p["Wo"] + p["bo"]
