"""Blind round 6 (b6_10, issue 38): self_attention with einsum (as in many flax/jax ports), and
patch_dim with the RGB channel count hard-coded.

Mistakes:
1. self_attention: after the per-head outputs (heads, T, d_h), merges them with a bare
   reshape(T, d) without first moving the head axis back (a classic `.view` instead of
   `.transpose(1, 2).reshape`). Shows only with several heads.
2. patch_dim: returns P * P * 3, ignoring C. Shows only when C != 3.

Grader: Both are named (C taken as its default 3; the merge without its transpose, in the words
of the reference's merge_heads); why-positions' permutation property gives its checklist.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'flatten-length': 'op:default:patch_dim:C-as-default',
          'multi-head-attention': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed',
          'no-causal-mask': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed'}
ALIASES = ('attention_not_equivariant',)  # the permutation property's verdict on the merge


def patch_dim(P, C=3):
    """Numbers in one flattened RGB patch."""
    return P * P * 3


def self_attention(x, p, heads, causal=False):
    """Multi-head self-attention with einsum."""
    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    d_h = d // heads
    q = (x @ p["Wq"] + p["bq"]).reshape(T, heads, d_h)
    k = (x @ p["Wk"] + p["bk"]).reshape(T, heads, d_h)
    v = (x @ p["Wv"] + p["bv"]).reshape(T, heads, d_h)
    logits = np.einsum('qhd,khd->hqk', q, k) / np.sqrt(d_h)
    if causal:
        logits = np.where(np.tril(np.ones((T, T), dtype=bool))[None], logits, -np.inf)
    attn = softmax(logits, axis=-1)
    out = np.einsum('hqk,khd->hqd', attn, v)           # (heads, T, d_h)
    return out.reshape(T, d) @ p["Wo"] + p["bo"]
