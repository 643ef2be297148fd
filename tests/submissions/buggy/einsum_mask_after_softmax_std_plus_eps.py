"""Blind round 5 (b5_08, issue 38): self_attention with einsum (flax-style), layer_norm after the
Annotated Transformer's LayerNorm (a_2 * (x - mean) / (std + eps) + b_2).

Mistakes:
1. self_attention, causal=True: the mask is applied after the softmax, by multiplying the
   probabilities with np.tril(ones) (no renormalisation, rows no longer sum to 1). Shows only
   with causal=True; the default (no mask) is right.
2. layer_norm: eps added to the standard deviation, outside the square root:
   (x - mean) / (sqrt(var) + eps). Shows for large eps or small-variance tokens (eps=0.5 case,
   values of scale 0.001).

Grader: both named (the mask after the softmax by steps.mask_after_step; it was only observed
before, "returns the expected values only in 1 of 4 rows (row 3)").
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'layer_norm_eps_outside',
          'no-causal-mask': 'op:mask_after:self_attention/attention:mask-after-softmax'}


def self_attention(x, p, heads, causal=False):
    """Multi-head dot-product attention written with einsum."""
    T, d = x.shape
    if d % heads:
        raise ValueError(f"width {d} is not divisible by {heads} heads")
    dh = d // heads
    q = (x @ p["Wq"] + p["bq"]).reshape(T, heads, dh)
    k = (x @ p["Wk"] + p["bk"]).reshape(T, heads, dh)
    v = (x @ p["Wv"] + p["bv"]).reshape(T, heads, dh)
    logits = np.einsum("qhd,khd->hqk", q, k) / np.sqrt(dh)
    weights = softmax(logits, axis=-1)
    if causal:
        weights = weights * np.tril(np.ones((T, T)))
    out = np.einsum("hqk,khd->qhd", weights, v).reshape(T, d)
    return out @ p["Wo"] + p["bo"]


def layer_norm(x, gamma, beta, eps=1e-6):
    """a_2 * (x - mean) / (std + eps) + b_2."""
    mean = x.mean(-1, keepdims=True)
    std = x.std(-1, keepdims=True)
    return gamma * (x - mean) / (std + eps) + beta
