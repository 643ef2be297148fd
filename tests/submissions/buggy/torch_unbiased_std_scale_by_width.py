"""Blind round 6 (b6_13, issue 38): layer_norm ported from PyTorch code that uses x.std(-1)
(unbiased by default in torch), and self_attention scaled by the model width (vit-pytorch's early
`self.scale = dim ** -0.5`).

Mistakes:
1. layer_norm: unbiased variance (ddof=1) instead of the biased one. Shows on every input (by a
   factor sqrt((d-1)/d) on the normalised part).
2. self_attention: scores divided by sqrt(d) instead of sqrt(d_h). Shows only with several heads
   (with one head d_h = d).

Grader: Both are named (the scale by sqrt(d) as the listed mistake on multi-head-attention and in
the reference's words on no-causal-mask).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'layer_norm_unbiased', 'multi-head-attention': 'attention_scale_d',
          'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(d)'}


def layer_norm(x, gamma, beta, eps=1e-6):
    """torch-style: (x - mean) / sqrt(var + eps), var = x.var(-1) as torch computes it."""
    mean = np.mean(x, axis=-1, keepdims=True)
    var = np.var(x, axis=-1, ddof=1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta


def self_attention(x, p, heads, causal=False):
    """Multi-head attention, heads split with a list comprehension."""
    T, dim = x.shape
    if dim % heads:
        raise ValueError(f"width {dim} is not divisible by {heads} heads")
    d_h = dim // heads
    scale = dim ** -0.5
    q, k, v = [x @ p["W" + n] + p["b" + n] for n in "qkv"]
    mask = np.tril(np.ones((T, T), dtype=bool)) if causal else np.ones((T, T), dtype=bool)
    heads_out = [
        softmax(np.where(mask, q[:, i:i + d_h] @ k[:, i:i + d_h].T * scale, -np.inf)) @ v[:, i:i + d_h]
        for i in range(0, dim, d_h)
    ]
    return np.hstack(heads_out) @ p["Wo"] + p["bo"]
