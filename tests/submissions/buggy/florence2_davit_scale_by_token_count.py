"""Blind round 26 (b26_08, issue 38): self_attention ported from Microsoft's Florence-2 DaViT
`ChannelAttention` (`self.scale = float(N) ** -0.5`, N the token count, `q = q * self.scale`).

Mistakes:
1. self_attention scales q by 1 / sqrt(T), the token count, instead of 1 / sqrt(d_h): right only
   when T == d_h.

Grader: at blind time, named in the words of the reference's code: `q.shape[-1]` reading index -2
instead of -1 (1 / sqrt(q.shape[-2]) is the student's scale exactly), an expression the student's
code does not write, never saying "scale". Now (error_model/scales.py's sqrt(T)) named as the
scale it is on no-causal-mask and multi-head-attention: "the scores are divided by sqrt(T) (at
your line `q = q * (float(N) ** -0.5)`), the square root of the number of tokens T". vit-checkpoint
observes the broken self_attention. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(T)',
          'multi-head-attention': 'op:constant:self_attention/attention:scale=sqrt(T)'}


def self_attention(x, p, heads, causal=False):
    N, C = x.shape
    if C % heads:
        raise ValueError(f"dim {C} should be divisible by num_heads {heads}")
    q = (x @ p["Wq"] + p["bq"]).reshape(N, heads, C // heads).transpose(1, 0, 2)
    k = (x @ p["Wk"] + p["bk"]).reshape(N, heads, C // heads).transpose(1, 0, 2)
    v = (x @ p["Wv"] + p["bv"]).reshape(N, heads, C // heads).transpose(1, 0, 2)
    q = q * (float(N) ** -0.5)
    attention = q @ k.transpose(0, 2, 1)
    if causal:
        attention = attention + np.triu(np.full((N, N), -np.inf), k=1)
    attention = softmax(attention, axis=-1)
    x = (attention @ v).transpose(1, 0, 2).reshape(N, C)
    return x @ p["Wo"] + p["bo"]
