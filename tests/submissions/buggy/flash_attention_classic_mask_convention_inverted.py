"""Blind round 65 (b65_14, issue 38): self_attention ported from toto-a/NeuralNet-Variety
`Flash_Attention/normal_attention.py` (classic_attention: scale Q, einsum, `masked_fill(mask == 0,
-inf)`, softmax, @ V). The student's top-level `classic_attention` is nested in self_attention
here: the builder replaces only the solution's own definitions.

Mistakes:
19. self_attention (line 162 of the file as delivered, with classic_attention at line 147): the
    mask built GPT-style, `triu(ones, k=1)` (1 = future), but classic_attention fills where
    `mask == 0` (1 = keep): the causal mask hides the diagonal and the past and keeps the future;
    the last row is fully masked (NaN). Wrong only with causal=True.

Grader: at blind time (0cd43d22) and now, 107/110, named. Mistake 19 on no-causal-mask's two
causal checks ("In `self_attention` (at your line `out = classic_attention(q, k, v, mask)`), your
masking acts as the model solution's `np.where(mask, scores, -np.inf)` with its condition
inverted, `np.where(~mask, scores, -np.inf)`: ... (torch's masked_fill fills where it holds), so
the scores to keep are hidden and those to hide kept."): said as what the file's `np.where(mask
== 0, -inf, ...)` acts as (its masking is in classic_attention, so no line of self_attention is
quoted for it), its effect right. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'no-causal-mask': 'op:mask_inverted:self_attention/attention:mask-inverted'}


def self_attention(x, p, heads, causal=False):
    """rearrange 'n (h d) -> h n d', classic_attention per head, back to 'n (h d)', then Wo."""
    def classic_attention(Q, K, V, mask=None):
        scale = 1 / Q.shape[-1] ** 0.5
        Q = Q * scale
        attn_weights = np.einsum('...id,...jd->...ij', Q, K)

        if mask is not None:
            attn_weights = np.where(mask == 0, float('-inf'), attn_weights)

        attn = softmax(attn_weights, axis=-1)
        return attn @ V

    n, dim = x.shape
    if dim % heads:
        raise ValueError(f"width {dim} is not divisible by {heads} heads")
    d = dim // heads
    q, k, v = ((x @ p[f"W{t}"] + p[f"b{t}"]).reshape(n, heads, d).transpose(1, 0, 2) for t in "qkv")

    # GPT causal mask: ones above the diagonal mark the future tokens
    mask = np.triu(np.ones((n, n)), k=1) if causal else None

    out = classic_attention(q, k, v, mask)
    out = out.transpose(1, 0, 2).reshape(n, dim)
    return out @ p["Wo"] + p["bo"]
