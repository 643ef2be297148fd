"""Blind round 83 (b83_08, issue 38): self_attention ported from
theguy-with-blacktie/Transformer-From-Scratch-Experiments `transformer/README.md` (Peter
Bloem's recipe).

Mistakes:
1. self_attention (lines 105-106 of the file as delivered): queries and keys each divided by
   `d ** (1 / 4)`, the fourth root of the full width d, so the scores are scaled by 1/sqrt(d)
   instead of 1/sqrt(d_h). Wrong with heads > 1 only (encoder_block and vit_forward inherit
   it).

Grader: at blind time (2774dae9) and now, 96/110. Mistake 1 named on multi-head-attention and
no-causal-mask ("You scaled by 1/sqrt(d), the model width ... scale by 1/sqrt(d_h)."); that
hint says the scores are divided by sqrt(d) where the code divides q and k each by d ** (1/4):
imprecise, the same scale. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'attention_scale_d',
          'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(d)'}


def self_attention(x, p, heads, causal=False):
    T, d = x.shape
    if d % heads != 0:
        raise ValueError("d must be divisible by heads")
    dh = d // heads

    def heads_first(t):
        return t.reshape(T, heads, dh).transpose(1, 0, 2)

    q = heads_first(x @ p["Wq"] + p["bq"])
    k = heads_first(x @ p["Wk"] + p["bk"])
    v = heads_first(x @ p["Wv"] + p["bv"])
    q = q / (d ** (1 / 4))
    k = k / (d ** (1 / 4))
    s = q @ k.transpose(0, 2, 1)
    if causal:
        s = np.where(np.tril(np.ones((T, T), dtype=bool)), s, -np.inf)
    o = softmax(s, axis=-1) @ v
    return o.transpose(1, 0, 2).reshape(T, d) @ p["Wo"] + p["bo"]
