"""Blind round 78 (b78_01, issue 38): self_attention ported from tjwjddn980117/ProjectPractice
`dalle1_ex_Practice/model/mingpt.py` (minGPT's CausalSelfAttention: separate key, query and value
projections, heads moved forward as the batch dimension, the output projection at the end).

Mistakes:
1. self_attention (line 97 of the file as delivered): the default `causal=True` (minGPT's layer
   always masks): every call that leaves `causal` out, encoder_block's and vit_forward's too,
   hides the later tokens; an explicit causal=True is right.

Grader: at blind time (ddfccf96) and now, 95/110. Mistake 1 named on multi-head-attention ("In
`self_attention`, `causal` defaults to True (`causal=True` in the signature): a call that leaves
it out gets causal=True, where the student API's default is False"), no-causal-mask and
why-positions ("Your `self_attention` masks the later tokens when `causal` is left out"). Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:default_flipped:self_attention:causal-defaults-True',
          'no-causal-mask': 'causal_default_true', 'why-positions': 'causal_default_true'}


def self_attention(x, p, heads, causal=True):
    """A vanilla multi-head masked self-attention layer with a projection at the end."""
    T, C = x.shape
    if C % heads != 0:
        raise ValueError("n_embd must be divisible by n_head")
    hs = C // heads
    # calculate query, key, values for all heads and move head forward to be the batch dim
    k = (x @ p["Wk"] + p["bk"]).reshape(T, heads, hs).transpose(1, 0, 2)  # (nh, T, hs)
    q = (x @ p["Wq"] + p["bq"]).reshape(T, heads, hs).transpose(1, 0, 2)  # (nh, T, hs)
    v = (x @ p["Wv"] + p["bv"]).reshape(T, heads, hs).transpose(1, 0, 2)  # (nh, T, hs)

    # causal self-attention; Self-attend: (nh, T, hs) x (nh, hs, T) -> (nh, T, T)
    att = (q @ k.transpose(0, 2, 1)) * (1.0 / math.sqrt(k.shape[-1]))
    if causal:
        mask = np.tril(np.ones((T, T)))
        att = np.where(mask[None] == 0, -np.inf, att)
    att = softmax(att, axis=-1)
    y = att @ v  # (nh, T, T) x (nh, T, hs) -> (nh, T, hs)
    y = y.transpose(1, 0, 2).reshape(T, C)  # re-assemble all head outputs side by side

    # output projection
    return y @ p["Wo"] + p["bo"]
