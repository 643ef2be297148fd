"""Blind round 28 (b28_01, issue 38): self_attention ported from Aladdin Persson's "Transformer
from scratch" (aladdinpersson/Machine-Learning-Collection, transformer_from_scratch.py:
SelfAttention with einsum "nqhd,nkhd->nhqk", masked_fill(mask == 0, -1e20),
softmax(energy / embed_size ** (1/2))), one sequence (N = 1 dropped).

Mistakes:
1. self_attention divides the scores by sqrt(embed_size) = sqrt(d), the tutorial's scale, instead
   of sqrt(d_h): right with one head only.

Grader: at blind time and now, named: the scale by 1/sqrt(d), the model width, on
multi-head-attention (attention_scale_d), and the same slip in the reference's words (the scores
divided by sqrt(d) instead of sqrt(d_h)) on no-causal-mask; vit-checkpoint observes the broken
self_attention. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(d)',
          'multi-head-attention': 'attention_scale_d'}


def self_attention(x, p, heads, causal=False):
    """SelfAttention.forward of the tutorial, one sequence (N = 1 dropped)."""
    seq_len, embed_size = x.shape
    if embed_size % heads != 0:
        raise ValueError("Embedding size needs to be divisible by heads")
    head_dim = embed_size // heads

    values = (x @ p["Wv"] + p["bv"]).reshape(seq_len, heads, head_dim)
    keys = (x @ p["Wk"] + p["bk"]).reshape(seq_len, heads, head_dim)
    queries = (x @ p["Wq"] + p["bq"]).reshape(seq_len, heads, head_dim)

    # queries (q, h, d), keys (k, h, d) -> energy (h, q, k)
    energy = np.einsum("qhd,khd->hqk", queries, keys)
    if causal:
        mask = np.tril(np.ones((seq_len, seq_len)))
        energy = np.where(mask[None] == 0, -1e20, energy)
    attention = softmax(energy / (embed_size ** (1 / 2)), axis=2)
    out = np.einsum("hql,lhd->qhd", attention, values).reshape(seq_len, heads * head_dim)
    return out @ p["Wo"] + p["bo"]
