"""Blind round 59 (b59_01, issue 38): num_patches and patchify ported from jankrepl/mildlyoverfitted
`github_adventures/vision_transformer/custom.py` (PatchEmbed's square `n_patches`; the torch
conv layout, `in_chans` first). The student's top-level `_to_chw` is nested in patchify here: the
builder replaces only the solution's own definitions.

Mistakes:
1. num_patches (line 16 of the file as delivered): `n_patches = (img_size // patch_size) ** 2`
   with `img_size = H` (the source's square `n_patches`), so W is ignored. Wrong only when
   H != W (32x48 with P=8 gives 16, not 24); num_tokens inherits it.
2. patchify (line 53): the port follows the torch layout (`in_chans` first), and
   `transpose(1, 3, 0, 2, 4)` flattens each patch in (c, p1, p2) order instead of (p1, p2, c).
   Wrong only with C > 1 (gray images agree); linear_patch_embed, embed_image and vit_forward
   inherit it.

Grader: at blind time (528b2ec3) and now, 97/110, both named. Mistake 1 on patch-count's
non-square check ("In `num_patches`, the model solution's `W // P` reads `H` where `W` belongs
..."), mistake 2 on patchify ("You flattened each patch channel first, (c, p1, p2) ...").
vit-checkpoint observes patchify. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:sibling:num_patches:W-as-H', 'patchify': 'patchify_channel_first'}


def num_patches(H, W, P):
    """Number of patches inside of our image (PatchEmbed.n_patches)."""
    img_size, patch_size = H, P
    if patch_size <= 0 or H % patch_size != 0 or W % patch_size != 0:
        raise ValueError(f"patch size {patch_size} does not tile a {H}x{W} image")
    n_patches = (img_size // patch_size) ** 2
    return n_patches


def patchify(image, P):
    """Split image into patches: (n_patches, patch_dim)."""
    def _to_chw(image):
        x = np.asarray(image)
        if x.ndim == 2:
            x = x[:, :, None]
        if x.ndim != 3:
            raise ValueError(f"expected an (H, W) or (H, W, C) image, got shape {x.shape}")
        return x.transpose(2, 0, 1)  # (in_chans, H, W), as the torch module sees it

    x = _to_chw(image)
    in_chans, H, W = x.shape
    num_patches(H, W, P)
    x = x.reshape(in_chans, H // P, P, W // P, P)  # (in_chans, gh, P, gw, P)
    x = x.transpose(1, 3, 0, 2, 4)                 # (gh, gw, in_chans, P, P)
    return x.reshape(-1, in_chans * P * P)         # (n_patches, patch_dim)
