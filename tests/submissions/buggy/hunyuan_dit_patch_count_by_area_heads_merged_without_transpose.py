"""Blind round 62 (b62_09, issue 38): num_patches and self_attention ported from Tencent/HunyuanDiT
`hydit/modules/embedders.py` (PatchEmbed's `num_patches` by area, with no tiling check) and
`hydit/modules/attn_layers.py` (Attention.forward).

Mistakes:
13. num_patches (lines 9-13 of the file as delivered): `int(H * W / (P * P))` with no tiling
    check: sizes that do not tile get a count ((10, 10, 4) returns 6 instead of raising
    ValueError). Wrong only when H % P != 0 or W % P != 0; num_tokens inherits it.
14. self_attention (line 103): `x.reshape(s, c)` from (heads, s, d_h) without the transpose back
    to (s, heads, d_h). Wrong only with heads > 1.

Grader: at blind time (90d6c97e) and now, 93/110, both named. Mistake 13 on patch-count's two
not-tiling checks ("2 mistakes at once: (1) In `num_patches`, there is no tiling test ... (2) ...
counted by area ..."). Mistake 14 on multi-head-attention's head-count and random checks and
no-causal-mask's two ("In `self_attention`, the heads' outputs are merged by a reshape without
moving the head axis back first: the (heads, T, d_h) array must become (T, heads, d_h) ..."), and
by why-positions' property checklist (attention_not_equivariant: "Your self_attention depends on
the order of its rows ..."); vit-checkpoint observes self_attention. Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:tiling:num_patches:none+op:count_by_area:num_patches:count-by-area',
          'multi-head-attention': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed',
          'no-causal-mask': 'op:transpose:self_attention/merge_heads:x.swapaxes-removed',
          'why-positions': 'attention_not_equivariant'}


def num_patches(H, W, P):
    img_size = (H, W)
    patch_size = (P, P)
    num_patches = int(img_size[0] * img_size[1] / (patch_size[0] * patch_size[1]))
    return num_patches


def self_attention(x, p, heads, causal=False):
    s, c = x.shape
    if c % heads != 0:
        raise ValueError("self.dim must be divisible by num_heads")
    num_heads = heads
    head_dim = c // num_heads
    scale = head_dim ** -0.5

    q = (x @ p["Wq"] + p["bq"]).reshape(s, num_heads, head_dim)
    k = (x @ p["Wk"] + p["bk"]).reshape(s, num_heads, head_dim)
    v = (x @ p["Wv"] + p["bv"]).reshape(s, num_heads, head_dim)

    q = q * scale
    q = q.transpose(1, 0, 2)                    # h s d
    k = k.transpose(1, 0, 2)
    v = v.transpose(1, 0, 2)
    attn = q @ k.transpose(0, 2, 1)             # h s s
    if causal:
        attn = attn + np.triu(np.full((s, s), -np.inf), 1)
    attn = softmax(attn, axis=-1)
    x = attn @ v                                # h s d

    context = x.reshape(s, c)
    return context @ p["Wo"] + p["bo"]
