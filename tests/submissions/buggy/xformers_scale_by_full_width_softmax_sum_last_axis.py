"""Blind round 23 (b23_05, issue 38): softmax and self_attention ported from xformers' reference
attention (facebookresearch/xformers, tests/test_mem_eff_attention.py `ref_attention`:
`scale = 1 / query.shape[-1] ** 0.5`, `query = query * scale`, `attn + attn_bias`,
`attn.softmax(-1)`, heads folded into the batch axis, the BMK layout). The student's top-level
helper `_bmhk_to_bmk` is nested in self_attention here: the builder replaces only the solution's
own definitions.

Mistakes:
1. self_attention reads `scale = 1 / query.shape[-1] ** 0.5` off the projected queries before
   they are split into heads: the scores are divided by sqrt(d) instead of sqrt(d_h) (several
   heads only).
2. softmax takes the max along `axis` but sums the normaliser along -1, as `attn.softmax(-1)`
   does: wrong whenever `axis` is not the last axis.

Grader: at blind time and now, both named: the scores divided by sqrt(d), the model width, on
no-causal-mask ("You scaled by 1/sqrt(d)" on multi-head-attention), and `np.sum(e, ..., axis=-1)`
in place of `axis=axis` on stable-softmax (its probability property's checklist too, ALIASES);
vit-checkpoint observes the broken functions. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'stable-softmax': 'op:axis:softmax:sum.axis=-1',
          'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(d)',
          'multi-head-attention': 'attention_scale_d'}
ALIASES = ('softmax_wrong_axis',)  # the probability property's verdict on it


def softmax(x, axis=-1):
    x = np.asarray(x, dtype=float)
    e = np.exp(x - x.max(axis=axis, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def self_attention(x, p, heads, causal=False):
    def _bmhk_to_bmk(t, heads):
        M, D = t.shape
        return t.reshape(M, heads, D // heads).transpose(1, 0, 2)   # (H, M, K): heads as the batch

    M, D = x.shape
    if D % heads:
        raise ValueError("D not divisible by heads")
    query = x @ p["Wq"] + p["bq"]
    key = x @ p["Wk"] + p["bk"]
    value = x @ p["Wv"] + p["bv"]
    scale = 1 / query.shape[-1] ** 0.5
    query = query * scale
    query, key, value = (_bmhk_to_bmk(t, heads) for t in (query, key, value))
    attn = query @ key.transpose(0, 2, 1)
    if causal:
        attn_bias = np.triu(np.full((M, M), -np.inf), k=1)
        attn = attn + attn_bias
    attn = softmax(attn, -1)
    out = attn @ value
    out = out.transpose(1, 0, 2).reshape(M, D)
    return out @ p["Wo"] + p["bo"]
