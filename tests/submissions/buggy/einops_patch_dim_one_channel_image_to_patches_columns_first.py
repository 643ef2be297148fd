"""Blind round 54 (b54_11, issue 38): patch_dim from the einops ViT excerpt (code search,
docstring "Vision Transformer.") with `channels: int = 1` and `patch_dim = channels * patch_height
* patch_width`; linear_patch_embed from `image_to_patches(image, patch_size=(16, 16))`
(find_string id 139551624: `image.reshape(n_columns, patch_size[0], n_rows, patch_size[1], c)`).

Mistakes:
1. patch_dim's default is C=1 (grayscale), not 3: patch_dim(16) -> 256, patch_dim(8) -> 64,
   patch_dim(2) -> 4 (API: 768, 192, 12). With C passed it is right.
2. linear_patch_embed reshapes (W//P, P, H//P, P, C), columns count first, as the source does, on
   an (H, W, C) array. For square images this is the same as the right order; for non-square
   images the patches are wrong rows of pixels (8x12 C=3 P=4, 12x8 C=2 P=4, 8x12 gray P=2 all
   differ; shape still (N, d)). embed_image and vit_forward on non-square images differ. The
   tiling check raises ValueError as it should.

Grader: at blind time (5f4a3d53) and now, both named: M1 on flatten-length ("In `patch_dim`, `C`
defaults to 1 instead of 3: right whenever `C` is given, wrong where it is left out."), M2 on
linear-patch-embed (at blind time "In `linear_patch_embed` (at the lecture's step `patchify(image,
P)`), the lecture's `image.reshape(H // P, P, W // P, P, C)` is given the lecture's `H // P` and
the lecture's `W // P` the other way round, `image.reshape(W // P, P, H // P, P, C)` (H for W: the
same only where they are equal)."; now: "In `linear_patch_embed`, the model solution's
`image.reshape(H // P, P, W // P, P, C)` is given its `H // P` and `W // P` the other way round,
`image.reshape(W // P, P, H // P, P, C)` ...");
cls-and-positions keeps its points (graded with the grader's linear_patch_embed standing in). Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'flatten-length': 'op:default_changed:patch_dim:C-default-1',
          'linear-patch-embed': 'op:sizes:linear_patch_embed/patchify:H-and-W-sizes-swapped'}


def patch_dim(P, C=1):
    """Numbers in one flattened patch: channels * patch_height * patch_width."""
    patch_height = patch_width = P
    return C * patch_height * patch_width


def linear_patch_embed(image, W_e, b_e, P):
    """Patch tokens (N, d): divide the image into patches, flatten each, then @ W_e + b_e."""
    image = _as_hwc(image)
    patch_size = (P, P)
    h, w, c = image.shape
    if w % patch_size[0] != 0 or h % patch_size[1] != 0:
        raise ValueError(f"patch size {P} does not tile a {h}x{w} image")
    n_columns = w // patch_size[0]
    n_rows = h // patch_size[1]
    patches = image.reshape(n_columns, patch_size[0], n_rows, patch_size[1], c)
    patches = patches.transpose(0, 2, 1, 3, 4).reshape(-1, patch_size[0], patch_size[1], c)
    patches = patches.reshape(len(patches), -1)
    return patches @ W_e + b_e
