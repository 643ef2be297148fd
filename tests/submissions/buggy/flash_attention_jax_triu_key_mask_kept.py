"""Blind round 75 (b75_06, issue 38): self_attention ported from lucidrains/flash-attention-jax
`flash_attention_jax/attention.py` (`MASK_VALUE = -1e10`, `q = q * scale`,
`sim = where(key_mask, sim, MASK_VALUE)`).

Mistakes:
1. self_attention (line 111 of the file as delivered): for causal=True the mask is
   `np.triu(..., k=1)` (True above the diagonal), but `attention` keeps the True entries, so
   only the future tokens are kept (the last row fully masked, uniform). Wrong with causal=True
   only.
The delivered file's top-level `MASK_VALUE` and `attention` are nested in self_attention here.

Grader: at blind time (db1f63a6) and now, 107/110. Named on no-causal-mask ("the mask
hides the scores it should keep and keeps the ones it should hide ... `np.tril(np.ones((T,
T)))`"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:mask_swapped:self_attention/attention:kept-and-hidden-swapped-finite-fill'}


def self_attention(x, p, heads, causal=False):
    MASK_VALUE = -1e10
    def attention(q, k, v, key_mask):
        dim, k_len = q.shape[-1], k.shape[-2]
        scale = 1 / np.sqrt(dim)

        q = q * scale
        sim = q @ k.T

        sim = np.where(key_mask, sim, MASK_VALUE)

        attn = softmax(sim, axis=-1)
        return attn @ v
    T, d = x.shape
    if d % heads != 0:
        raise ValueError("heads must divide d")
    dh = d // heads
    q = x @ p["Wq"] + p["bq"]
    k = x @ p["Wk"] + p["bk"]
    v = x @ p["Wv"] + p["bv"]

    if causal:
        key_mask = np.triu(np.ones((T, T), dtype=bool), k=1)
    else:
        key_mask = np.ones((T, T), dtype=bool)

    outs = [attention(q[:, h * dh:(h + 1) * dh], k[:, h * dh:(h + 1) * dh], v[:, h * dh:(h + 1) * dh], key_mask)
            for h in range(heads)]
    return np.concatenate(outs, axis=-1) @ p["Wo"] + p["bo"]
