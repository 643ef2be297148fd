"""Blind round 29 (b29_03, issue 38): ported from Francesco Saverio Zuppichini's "Implementing
Vision Transformer (ViT) in PyTorch" blog post (PatchEmbedding's positions
`(img_size // patch_size) ** 2 + 1`, MultiHeadAttention with einsum 'bhqd, bhkd -> bhqk',
`scaling = self.emb_size ** (1/2)`, `att = F.softmax(energy, dim=-1) / scaling`).

Mistakes:
1. num_patches: the blog's square-image count `(img_size // patch_size) ** 2` with img_size = H
   (the tiling check kept): right on square images only.
2. self_attention: divides AFTER the softmax, and by sqrt(emb_size) = sqrt(d):
   softmax(q k^T) / sqrt(d) @ v. Wrong on every input, any number of heads.

Grader: at blind time and now, named: "`W // P` reads `H` where `W` belongs" on patch-count; "2
mistakes at once: (1) ... divided by sqrt(d) (at your line `scaling = emb_size ** (1 / 2)`), the
model width, instead of sqrt(d_h) ... (2) ... applied to the output of `softmax(scores)` instead of
to its input" on the attention checks (with one head, the second part alone); vit-checkpoint
observes the broken functions. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:sibling:num_patches:W-as-H',
          'no-causal-mask': 'op:constant:self_attention/attention:scale=sqrt(d)+op:scale_after:self_attention/attention:scores-scaled-after-softmax',
          'multi-head-attention': 'op:constant:self_attention/attention:scale=sqrt(d)+op:scale_after:self_attention/attention:scores-scaled-after-softmax'}


def num_patches(H, W, P):
    """(img_size // patch_size) ** 2, as in PatchEmbedding's positions."""
    if P <= 0 or H % P or W % P:
        raise ValueError(f"patch size {P} does not tile a {H}x{W} image")
    img_size = H
    return (img_size // P) ** 2


def self_attention(x, p, heads, causal=False):
    """MultiHeadAttention.forward of the blog, without the batch axis."""
    n, emb_size = x.shape
    if emb_size % heads:
        raise ValueError(f"emb_size {emb_size} is not divisible by {heads} heads")
    # rearrange(self.queries(x), "b n (h d) -> b h n d", h=self.num_heads)
    def rearrange_in(t):
        return t.reshape(n, heads, emb_size // heads).transpose(1, 0, 2)
    queries = rearrange_in(x @ p["Wq"] + p["bq"])
    keys = rearrange_in(x @ p["Wk"] + p["bk"])
    values = rearrange_in(x @ p["Wv"] + p["bv"])
    energy = np.einsum('hqd,hkd->hqk', queries, keys)
    if causal:
        mask = np.tril(np.ones((n, n), dtype=bool))
        fill_value = np.finfo(np.float64).min
        energy = np.where(mask, energy, fill_value)
    scaling = emb_size ** (1 / 2)
    att = softmax(energy, axis=-1) / scaling
    out = np.einsum('hal,hlv->hav', att, values)
    out = out.transpose(1, 0, 2).reshape(n, emb_size)   # "b h n d -> b n (h d)"
    return out @ p["Wo"] + p["bo"]
