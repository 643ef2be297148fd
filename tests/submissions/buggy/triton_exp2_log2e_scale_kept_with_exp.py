"""Blind round 25 (b25_02, issue 38): self_attention ported from OpenAI's Triton fused-attention
tutorial (python/tutorials/06-fused-attention.py, `_attn_fwd` / `_attn_fwd_inner`): one loop per
head, `qk_scale = sm_scale * 1.44269504` (1 / ln 2, paired in the kernel with `tl.math.exp2`), the
row max `m_ij`, the causal mask `offs_m[:, None] >= offs_n[None, :]`.

Mistakes:
1. self_attention keeps the kernel's `qk_scale = sm_scale * 1.44269504` but exponentiates with
   np.exp: the scores are scaled by log2(e) / sqrt(d_h) instead of 1 / sqrt(d_h), a temperature
   inside the softmax, for every head count, with or without the mask.

Grader: at blind time not named: the causal checks observed "only in 1 of 4 rows (row 0)" (row 0
of a causal softmax does not depend on the scale), and the multi-head-attention checks failed with
no hint at all. Now named (since f70bb48, terms.base_two): the scores also multiplied by log2(e) =
1.4427 where the softmax exponentiates in base e, "a base-2 kernel's factor", on no-causal-mask and
multi-head-attention; vit-checkpoint observes the broken self_attention. Every mistake named, so
in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:base_two:self_attention/attention:scale-times-1.4427',
          'multi-head-attention': 'op:base_two:self_attention/attention:scale-times-1.4427'}


def self_attention(x, p, heads, causal=False):
    """Per-head loop in the shape of the Triton fused-attention kernel."""
    N_CTX, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    HEAD_DIM = d // heads
    sm_scale = 1.0 / math.sqrt(HEAD_DIM)
    q = (x @ p["Wq"] + p["bq"]).reshape(N_CTX, heads, HEAD_DIM).transpose(1, 0, 2)
    k = (x @ p["Wk"] + p["bk"]).reshape(N_CTX, heads, HEAD_DIM).transpose(1, 0, 2)
    v = (x @ p["Wv"] + p["bv"]).reshape(N_CTX, heads, HEAD_DIM).transpose(1, 0, 2)
    qk_scale = sm_scale * 1.44269504  # 1/log(2)
    offs_m = np.arange(N_CTX)
    offs_n = np.arange(N_CTX)
    o = np.empty_like(q)
    for off_h in range(heads):
        qk = q[off_h] @ k[off_h].T
        if causal:
            mask = offs_m[:, None] >= offs_n[None, :]
            qk = qk * qk_scale + np.where(mask, 0, -1.0e6)
            m_ij = np.max(qk, 1)
            qk -= m_ij[:, None]
        else:
            m_ij = np.max(qk, 1) * qk_scale
            qk = qk * qk_scale - m_ij[:, None]
        p_ij = np.exp(qk)
        l_ij = np.sum(p_ij, 1)
        acc = p_ij @ v[off_h]
        o[off_h] = acc / l_ij[:, None]
    return o.transpose(1, 0, 2).reshape(N_CTX, d) @ p["Wo"] + p["bo"]
