"""Blind round 51 (b51_04, issue 38): self_attention ported from the self-attention-cv
MultiHeadSelfAttention (`rearrange(qkv, 'b t (d k h) -> k b h t d', k=3, h=self.heads)`, einsum
scores `* self.scale_factor` with `dim_head ** -0.5`, `rearrange(out, "b h t d -> b t (h d)")`),
with separate Wq/Wk/Wv as `'t (d h) -> h t d'`.

Mistakes:
1. The heads are split with `reshape(T, dim_head, heads)` (head index fastest: head h takes
   columns h, h + heads, ...) but merged back as `(h d)` (head-major). Right with heads = 1;
   wrong with heads = 2 or 4 for every T and both causal settings. encoder_block and vit_forward
   inherit it.

Grader: at blind time (b53db91d) and now, named on no-causal-mask and multi-head-attention: at
blind time "In `self_attention` (in each of the lecture's 3 calls of `split_heads`),
`x.reshape(*lead, T, heads, d // heads)` splits its last axis the other way round,
`x.reshape(*lead, T, d // heads, heads).swapaxes(-1, -2)`: each of the `heads` groups takes every
`heads`-th element (interleaved) instead of `d // heads` consecutive ones." (now: "In
`self_attention` (in each of the model solution's 3 calls of `split_heads`), the model solution's
`x.reshape(*lead, T, heads, d // heads)` splits its last axis the other way round ...");
vit-checkpoint observes self_attention. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:split:self_attention/split_heads*:reshape-split-interleaved',
          'multi-head-attention': 'op:split:self_attention/split_heads*:reshape-split-interleaved'}


def self_attention(x, p, heads, causal=False):
    assert x.ndim == 2
    T, dim = x.shape
    if dim % heads != 0:
        raise ValueError(f"width {dim} is not divisible by {heads} heads")
    dim_head = dim // heads
    scale_factor = dim_head ** -0.5

    def rearrange_in(y):                         # 't (d h) -> h t d'
        return y.reshape(T, dim_head, heads).transpose(2, 0, 1)

    q = rearrange_in(x @ p["Wq"] + p["bq"])
    k = rearrange_in(x @ p["Wk"] + p["bk"])
    v = rearrange_in(x @ p["Wv"] + p["bv"])
    scaled_dot_prod = np.einsum('h i d , h j d -> h i j', q, k) * scale_factor
    if causal:
        mask = np.triu(np.ones((T, T), dtype=bool), k=1)
        scaled_dot_prod = np.where(mask, -np.inf, scaled_dot_prod)
    attention = softmax(scaled_dot_prod, axis=-1)
    out = np.einsum('h i j , h j d -> h i d', attention, v)
    out = out.transpose(1, 0, 2).reshape(T, heads * dim_head)   # 'h t d -> t (h d)'
    return out @ p["Wo"] + p["bo"]
