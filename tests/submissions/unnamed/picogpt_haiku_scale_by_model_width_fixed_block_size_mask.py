"""Blind round 71 (b71_08, issue 38): self_attention (with its per-head `head` and the
module-level causal mask) ported from Artur-Galstyan/picoGPT `head.py` (haiku Head and
MultiHead).

Mistakes:
1. head (line 87 of the file as delivered), called per head by self_attention: the scores
   scaled by `C**-0.5` with C the full width d (the source's `B, T, C = x.shape`), not d_h.
   Right with heads=1, too small a scale with heads > 1.
2. module level (lines 8-9) and head (line 89): the causal mask is a precomputed `tril` of
   size `block_size = 8`, sliced `tril[:T, :T]`; for T > 8 with causal=True the (8, 8) mask
   does not broadcast against (T, T) scores: ValueError. Right for causal=True with T <= 8
   and for causal=False.
The delivered file's top-level `head` and its `block_size` and `tril` are nested here.

Grader: at blind time (3f040026) and now, 96/110. Mistake 1 named on multi-head-attention ("You
scaled by 1/sqrt(d), the model width. Each head's dot products are over d_h = d // heads
numbers: scale by 1/sqrt(d_h).") and on no-causal-mask's visible check ("the scores are divided
by sqrt(d), the model width, instead of sqrt(d_h)"). Mistake 2 not told at blind time:
no-causal-mask's hidden check (T > 8, ValueError) says "Your `self_attention` also loses points
in multi-head-attention: fix it there first, as the mistake there may be what fails here too",
WRONG (the judge's wrong hint 2): with the scale fixed alone the check still fails with the same
ValueError, which comes from the 8 x 8 `tril`. Since a6e9f859 the ValueError's hint is the raise
at the student's line (checks/raised_here.py). Since b2a76934, a mask built once for a fixed
length is named (report/fixed_size.py), but only where every case whose length fits is right:
here the lengths that fit are wrong too with heads > 1 (mistake 1), so the raise's hint stays.
Not every mistake named (mistake 2 told by its line only), so in unnamed/; EXPECT holds what
must hold today: the points lost, mistake 1 named.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'multi-head-attention': 'attention_scale_d',
          'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(d)'}


def self_attention(x, p, heads, causal=False):
    block_size = 8
    tril = np.tril(np.ones((block_size, block_size)))

    def head(x, Wq, bq, Wk, bk, Wv, bv, causal=False):
        T, C = x.shape
        k = x @ Wk + bk
        q = x @ Wq + bq

        weights = q @ k.T * C**-0.5
        if causal:
            weights = np.where(tril[:T, :T] == 0, -np.inf, weights)
        weights = softmax(weights, axis=-1)
        v = x @ Wv + bv
        return weights @ v

    n_embed = x.shape[-1]
    if n_embed % heads:
        raise ValueError("n_embed must be a multiple of n_heads")
    head_size = n_embed // heads
    outs = []
    for h in range(heads):
        s = slice(h * head_size, (h + 1) * head_size)
        outs.append(head(x, p["Wq"][:, s], p["bq"][s], p["Wk"][:, s], p["bk"][s],
                         p["Wv"][:, s], p["bv"][s], causal=causal))
    return np.concatenate(outs, axis=-1) @ p["Wo"] + p["bo"]
