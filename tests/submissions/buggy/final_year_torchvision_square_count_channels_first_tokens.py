"""Blind round 81 (b81_07, issue 38): num_patches and linear_patch_embed ported from
aadityapattabhiraman/final-year `Vision/model.py` (torchvision's VisionTransformer). The delivered
file's top-level helper `_as_image` is nested in linear_patch_embed here.

Mistakes:
1. num_patches (lines 12-14 of the file as delivered): `seq_length = (H // P) ** 2`, and only
   `H % P` is tested (torchvision assumes a square image_size): wrong on non-square images (32 x
   48 with P = 8 gives 16, not 24), no ValueError when only W does not tile. num_tokens inherits.
2. linear_patch_embed (lines 84-86): runs conv_patch_embed (channels last, (n_h, n_w, d)) then
   copies torchvision's channels-first `reshape(hidden_dim, n_h * n_w)` and transpose: the tokens
   are scrambled for every image with N > 1 or d > 1 (embed_image and vit_forward inherit it).

Grader: at blind time (b5c841e9) and now, 94/110. Mistake 1 named on patch-count ("`W // P` reads `H` where `W`
belongs: in effect `H // P` ... (right only when H == W)", and on the sizes that do not tile a
pair whose part (1) says the tiling test "tests the height only (`H % P`)"). Mistake 2 not told
at blind time: linear-patch-embed gave its checklists only ("linear_patch_embed(image, W_e, b_e,
P) is patchify(image, P) @ W_e + b_e: one row per patch in raster order ..."). Since beea71bc
(checks/kinds/relaid.py) it is named on every failed check of linear-patch-embed: "Your
`linear_patch_embed` returns the right values in another layout: the buffer of its (4, 2) result
is read as (2, 4) and transposed, as `value.reshape(2, 4).T` does (what code written for a
channels-first array, features first, does to one already channels last), ... Drop the
transpose: a reshape to (4, 2) alone keeps the values in their order." (its callers, graded
around it, keep full marks).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:sibling:num_patches:W-as-H',
          'linear-patch-embed': 'buffer_read_transposed'}
ALIASES = ('op:tiling:num_patches:height-only',)  # the same count's tiling test, height only


def num_patches(H, W, P):
    if H % P != 0:
        raise ValueError("Input shape indivisible by patch size!")
    seq_length = (H // P) ** 2
    return seq_length


def linear_patch_embed(image, W_e, b_e, P):
    def _as_image(x):
        x = np.asarray(x, dtype=float)
        if x.ndim == 2:
            x = x[:, :, None]
        if x.ndim != 3:
            raise ValueError(f"Expected (H, W) or (H, W, C) got {x.shape}")
        return x

    x = _as_image(image)
    h, w, c = x.shape
    if h % P != 0 or w % P != 0:
        raise ValueError("Input shape indivisible by patch size!")
    n_h = h // P
    n_w = w // P
    hidden_dim = W_e.shape[1]
    conv_proj = W_e.reshape(P, P, c, hidden_dim)

    # (h, w, c) -> (n_h, n_w, hidden_dim)
    x = conv_patch_embed(x, conv_proj, b_e, P)
    # (n_h, n_w, hidden_dim) -> (hidden_dim, (n_h * n_w))
    x = x.reshape(hidden_dim, n_h * n_w)
    # (hidden_dim, (n_h * n_w)) -> ((n_h * n_w), hidden_dim)
    x = x.T
    return x
