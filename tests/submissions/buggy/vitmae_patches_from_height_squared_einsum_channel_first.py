"""Blind round 19 (b19_09, issue 38): num_patches and patchify ported from Hugging Face's ViTMAE
(`patchify` with its einsum, `ViTMAEPatchEmbeddings` counting from a square image_size).

Mistakes:
1. num_patches is `(H // P) ** 2`, counted from the height for both sides (the tiling check
   kept): right only for square images.
2. patchify's einsum is "hpwqc->hwcpq": a patch flattened channel first (c, p1, p2), not
   (p1, p2, c) (right with one channel).

Grader: at blind time and now, both named: `W // P` read as `H // P` (op:sibling) and
patchify_channel_first. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:sibling:num_patches:W-as-H', 'patchify': 'patchify_channel_first'}


def num_patches(H, W, P):
    if P <= 0 or H % P != 0 or W % P != 0:
        raise ValueError(f"Input image size ({H}*{W}) doesn't match a patch size of {P}.")
    num_patches = (H // P) ** 2
    return num_patches


def patchify(image, P):
    """imgs: (H, W, 3) -> x: (L, patch_size**2 * 3)"""
    imgs = np.asarray(image)
    if imgs.ndim == 2:
        imgs = imgs[:, :, np.newaxis]
    if imgs.ndim != 3:
        raise ValueError("pixel_values must be (H, W) or (H, W, C)")
    H, W, num_channels = imgs.shape
    patch_size = P
    if patch_size <= 0 or H % patch_size != 0 or W % patch_size != 0:
        raise ValueError("Make sure the pixel values have a size divisible by the patch size")
    num_patches_one_direction_h = H // patch_size
    num_patches_one_direction_w = W // patch_size
    patchified = imgs.reshape(num_patches_one_direction_h, patch_size,
                              num_patches_one_direction_w, patch_size, num_channels)
    patchified = np.einsum("hpwqc->hwcpq", patchified)
    patchified = patchified.reshape(
        num_patches_one_direction_h * num_patches_one_direction_w, patch_size ** 2 * num_channels)
    return patchified
