"""Blind round 10 (b10_07, issue 38): self_attention ported from karpathy/nanoGPT CausalSelfAttention
(the `bias` buffer `torch.tril(torch.ones(block_size, block_size))` cut to [:T, :T]) with
openai/guided-diffusion QKVAttention's scaling of q and k separately ("more stable with f16").

Mistakes:
1. q and k are both multiplied by 1/sqrt(d_h) (guided-diffusion uses d_h**-0.25 each), so the
   scores are divided by d_h. Every d_h > 1.
2. The mask buffer is sized by the width: `np.tril(np.ones((C, C)))[:T, :T]`, a broadcasting
   error when T > d with causal=True.

Grader: the scale is named (op:constant scale=d_h). The buffer showed only on a hidden check as
"your code raised ValueError", no hint, until fixed.buffer_cut (`causal_mask(x.shape[-1])[:T, :T]`)
and slips.with_named (the scale, named on the function's other checks, paired with each single
that reproduces the failing call's raise by its type): now that check names both.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'op:constant:self_attention/attention:scale=d_h',
          'no-causal-mask': 'op:buffer_cut:self_attention:causal_mask-of-x.shape[-1]-cut'
                            '+op:constant:self_attention/attention:scale=d_h'}


def self_attention(x, p, heads, causal=False):
    """nanoGPT CausalSelfAttention.forward for one sequence (no batch)."""
    T, C = x.shape
    n_head = heads
    if C % n_head != 0:
        raise ValueError("n_embd must be divisible by n_head")
    hs = C // n_head
    q = (x @ p["Wq"] + p["bq"]).reshape(T, n_head, hs).transpose(1, 0, 2)   # (nh, T, hs)
    k = (x @ p["Wk"] + p["bk"]).reshape(T, n_head, hs).transpose(1, 0, 2)
    v = (x @ p["Wv"] + p["bv"]).reshape(T, n_head, hs).transpose(1, 0, 2)
    scale = 1 / math.sqrt(hs)
    att = (q * scale) @ (k * scale).transpose(0, 2, 1)   # more stable than dividing afterwards
    if causal:
        bias = np.tril(np.ones((C, C)))[:T, :T]
        att = np.where(bias == 0, -np.inf, att)
    att = softmax(att, axis=-1)
    y = att @ v                                           # (nh, T, hs)
    y = y.transpose(1, 0, 2).reshape(T, C)
    return y @ p["Wo"] + p["bo"]
