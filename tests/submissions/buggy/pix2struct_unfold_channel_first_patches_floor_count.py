"""Blind round 25 (b25_04, issue 38): num_patches and patchify ported from Pix2Struct's patch
extraction (Hugging Face `Pix2StructImageProcessor`, `torch_extract_patches`: `F.unfold` with
kernel and stride (P, P) on a (B, C, H, W) tensor; `rows = image_height // patch_height`,
`columns = image_width // patch_width`, the image resized first so that the patches fit).

Mistakes:
1. patchify keeps unfold's (B, C*P*P, L) only transposed to (B, L, C*P*P), without Pix2Struct's
   `reshape(B, C, P, P, L).permute(0, 4, 2, 3, 1)`: each patch flattened (c, p1, p2).
2. num_patches floors, `rows * columns`, and never raises ValueError (patchify checks the tiling
   itself and still raises).

Grader: at blind time and now, both named: the patch flattened channel first, (c, p1, p2), on
patchify, and floor division dropping the pixels that do not fit on patch-count; vit-checkpoint
observes the broken patchify. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'floor_division_count',
          'patchify': 'patchify_channel_first'}


def num_patches(H, W, P):
    """Pix2Struct: the rows and columns of patches that fit."""
    rows = H // P
    columns = W // P
    return rows * columns


def patchify(image, P):
    """torch_extract_patches, in numpy: unfold to (B, C*P*P, L), then one row per patch."""
    image = _as_hwc(image)
    image_tensor = image.transpose(2, 0, 1)[None]          # (1, C, H, W) as in torch
    batch_size, channels, image_height, image_width = image_tensor.shape
    if image_height % P or image_width % P:
        raise ValueError(f"patch size {P} does not tile a {image_height}x{image_width} image")
    rows, columns = image_height // P, image_width // P
    # F.unfold(image_tensor, (P, P), stride=(P, P)): (B, C*P*P, L), column index = (c, p1, p2)
    patches = image_tensor.reshape(batch_size, channels, rows, P, columns, P)
    patches = patches.transpose(0, 1, 3, 5, 2, 4).reshape(batch_size, channels * P * P, rows * columns)
    patches = patches.transpose(0, 2, 1)                    # (B, L, C*P*P)
    return patches[0]
