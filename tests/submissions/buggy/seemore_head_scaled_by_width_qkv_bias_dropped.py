"""Blind round 36 (b36_05, issue 38): self_attention ported from AviSoori1x/seemore,
modules/attention.py (Head: nn.Linear(n_embd, head_size, bias=False) for q, k and v,
wei = q @ k.T * C**-0.5; MultiHeadAttention concatenates the heads, then proj).

Mistakes:
1. The scores are scaled by C ** -0.5 with C the whole width d, not d_h: wrong with 2+ heads.
2. The q/k/v projections have no bias: bq, bk, bv are ignored.

Grader: at blind time (9ebbf4a) neither named: multi-head-attention's visible "one head" and
"several head counts" checks showed no hint line at all, the hidden checks the generic
checklist; no-causal-mask an observation pointing at multi-head-attention. Now both named: the
three projections without bias are one slip (op:qkv_bias_free, nanoGPT's `Head`), alone on "one
head" (the scale is right there) and paired with "the scores are divided by sqrt(d), the model
width" on the other attention checks; every failed check has a hint line. In buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:qkv_bias_free:self_attention:qkv-without-bias'
                            '+op:constant:self_attention/attention:scale=sqrt(d)',
          'multi-head-attention': 'op:qkv_bias_free:self_attention:qkv-without-bias'
                                  '+op:constant:self_attention/attention:scale=sqrt(d)'}


def self_attention(x, p, heads, causal=False):
    """MultiHeadAttention: one Head per slice of the projections, concatenated, then proj."""
    T, C = x.shape
    if C % heads != 0:
        raise ValueError("n_embd must be divisible by num_heads")
    head_size = C // heads

    def head(h):
        cols = slice(h * head_size, (h + 1) * head_size)
        k = x @ p["Wk"][:, cols]          # nn.Linear(n_embd, head_size, bias=False)
        q = x @ p["Wq"][:, cols]
        v = x @ p["Wv"][:, cols]
        wei = q @ k.T * (C ** -0.5)
        if causal:                         # is_decoder
            tril = np.tril(np.ones((T, T), dtype=bool))
            wei = np.where(tril, wei, -np.inf)
        wei = softmax(wei, axis=-1)
        return wei @ v

    out = np.concatenate([head(h) for h in range(heads)], axis=-1)
    out = out @ p["Wo"] + p["bo"]          # self.proj
    return out
