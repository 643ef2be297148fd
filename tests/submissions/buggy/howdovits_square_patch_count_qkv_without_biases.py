"""Blind round 60 (b60_01, issue 38): num_patches and self_attention ported from
xxxnell/how-do-vits-work `models/embeddings.py` (AbsPosEmbedding's single-number `image_size`,
`_conv_output_size`) and `models/attentions.py` (Attention's `to_qkv = nn.Linear(dim_in,
inner_dim * 3, bias=False)`). The student's top-level helper `_conv_output_size` is nested in
num_patches here: the builder replaces only the solution's own definitions.

Mistakes:
1. num_patches (lines 12-17 of the file as delivered; num_tokens inherits it) ports
   AbsPosEmbedding's single-number `image_size`: it tests only `H % P` and returns
   `_conv_output_size(H, P, P) ** 2`, so the count is (H/P)^2 and there is no ValueError when
   only W does not tile. Wrong only when H != W ((4, 6, 2) gives 4, not 6; (4, 5, 2) gives 4
   instead of raising).
2. self_attention (lines 113-114) projects with the fused `x @ to_qkv` (bias=False), so bq, bk
   and bv are never added. Wrong whenever bq or bv is nonzero (bk alone cancels in the softmax).

Grader: at blind time (528b2ec3) and now, 91/110, both named. Mistake 1 on patch-count's
non-square and random checks ("In `num_patches`, `W // P` reads `H` where `W` belongs: `H // P`,
a copy of its sibling term (right only when H == W).") and, with the tiling half, on its random
non-tiling check ("2 mistakes at once: (1) ... tests the height only (`H % P`) ..."); token-count
keeps full marks around it. Mistake 2 on multi-head-attention's three checks and no-causal-mask's
causal checks ("In `self_attention`, q, k and v are projected without their biases ...");
vit-checkpoint observes self_attention. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:sibling:num_patches:W-as-H',
          'no-causal-mask': 'op:qkv_bias_free:self_attention:qkv-without-bias',
          'multi-head-attention': 'op:qkv_bias_free:self_attention:qkv-without-bias'}


def num_patches(H, W, P):
    def _conv_output_size(image_size, kernel_size, stride, padding=0):
        return int(((image_size - kernel_size + (2 * padding)) / stride) + 1)

    image_size, patch_size = H, P
    if not image_size % patch_size == 0:
        raise ValueError("Image dimensions must be divisible by the patch size.")
    output_size = _conv_output_size(image_size, patch_size, patch_size)
    return output_size ** 2


def self_attention(x, p, heads, causal=False):
    n, dim_in = x.shape
    if dim_in % heads:
        raise ValueError("dim must be divisible by heads")
    head_dim = dim_in // heads
    scale = head_dim ** -0.5

    to_qkv = np.concatenate([p["Wq"], p["Wk"], p["Wv"]], axis=1)
    qkv = np.split(x @ to_qkv, 3, axis=-1)
    q, k, v = map(lambda t: t.reshape(n, heads, head_dim).transpose(1, 0, 2), qkv)

    dots = np.einsum('hid,hjd->hij', q, k) * scale
    if causal:
        dots = np.where(np.tril(np.ones((n, n), dtype=bool)), dots, -np.inf)
    attn = softmax(dots, axis=-1)

    out = np.einsum('hij,hjd->hid', attn, v)
    out = out.transpose(1, 0, 2).reshape(n, heads * head_dim)
    out = out @ p["Wo"] + p["bo"]
    return out
