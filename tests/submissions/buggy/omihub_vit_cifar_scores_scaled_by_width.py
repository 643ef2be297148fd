"""Blind round 29 (b29_02, issue 38): self_attention ported from omihub777/ViT-CIFAR (vit.py,
MultiHeadSelfAttention: view(b, n, head, feats // head).transpose(1, 2),
einsum("bhif, bhjf->bhij") / self.sqrt_d, softmax, einsum("bhij, bhjf->bihf"), flatten, o).

Mistakes:
1. The scores are divided by sqrt(feats) = sqrt(d), the repo's `self.sqrt_d = self.feats**0.5`,
   instead of sqrt(d_h). Right for one head; wrong for two or more.

Grader: at blind time and now, named: "You scaled by 1/sqrt(d), the model width"
(attention_scale_d) on multi-head-attention, the scale=sqrt(d) rewrite on no-causal-mask;
vit-checkpoint observes the broken self_attention. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(d)',
          'multi-head-attention': 'attention_scale_d'}


def self_attention(x, p, heads, causal=False):
    """vit.py MultiHeadSelfAttention.forward, one image (no batch axis)."""
    n, feats = x.shape
    head = heads
    if feats % head != 0:
        raise ValueError(f"feats={feats} not divisible by head={head}")
    sqrt_d = feats ** 0.5

    q = (x @ p["Wq"] + p["bq"]).reshape(n, head, feats // head).transpose(1, 0, 2)
    k = (x @ p["Wk"] + p["bk"]).reshape(n, head, feats // head).transpose(1, 0, 2)
    v = (x @ p["Wv"] + p["bv"]).reshape(n, head, feats // head).transpose(1, 0, 2)

    score = np.einsum("hif,hjf->hij", q, k) / sqrt_d  # (h, n, n)
    if causal:
        future = np.triu(np.ones((n, n), dtype=bool), k=1)
        score = np.where(future, -np.inf, score)
    score = softmax(score, axis=-1)
    attn = np.einsum("hij,hjf->ihf", score, v)        # (n, h, f//h)
    o = attn.reshape(n, feats) @ p["Wo"] + p["bo"]
    return o
