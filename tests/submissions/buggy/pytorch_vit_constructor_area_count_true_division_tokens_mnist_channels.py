"""Blind round 48 (b48_12, issue 38): num_patches, num_tokens and patch_dim ported from PyTorch
ViT constructors: code-search file id 32422507518 (`ViTVanilla`: `num_patches = (img_size *
img_size) // (patch_size * patch_size)`, `patch_dim = in_channels * patch_size * patch_size`) and
id 9514005218 (an MNIST ViT, `img_size: int = 28, patch_size: int = 4, in_channels: int = 1`).
The port generalises to H x W.

Mistakes:
1. `num_patches`: no tiling check, `(H * W) // (P * P)`: an int where the API raises ValueError
   ((5, 4, 2) -> 5, (6, 6, 4) -> 2). Tiling sizes are right.
2. `num_tokens`: true division, `H * W / (P * P) (+ 1)`: a float (197.0 for 224/16), and a
   float instead of a ValueError where P does not tile.
3. `patch_dim`: the default `C=1` (MNIST's in_channels=1): patch_dim(16) is 256, not 768. An
   explicit C is right.

Grader: at blind time (4b7c886d) and now, named: "2 mistakes at once: (1) In `num_patches`, there
is no tiling test: it refuses no size ... (2) In `num_patches`, the patches are counted by area,
`H * W // (P * P)` ..." on patch-count; "In `num_tokens`, the count `num_patches(H, W, P) + (1 if
cls_token else 0)` comes out as a float ..." and "2 mistakes at once: (1) In `num_tokens` (at the
lecture's step `num_patches(H, W, P)`), there is no tiling test ... (2) ... counted with true
division, `(H / P) * (W / P)` ..." on token-count; "In `patch_dim`, `C` defaults to 1 instead of
3: right whenever `C` is given, wrong where it is left out." on flatten-length. Every mistake
named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:tiling:num_patches:none+op:count_by_area:num_patches:count-by-area',
          'token-count': 'op:count_as_float:num_tokens:count-as-float',
          'flatten-length': 'op:default_changed:patch_dim:C-default-1'}


def num_patches(H, W, P):
    """ViTVanilla's `num_patches = (img_size * img_size) // (patch_size * patch_size)`, for H x W."""
    num_patches = (H * W) // (P * P)
    return num_patches


def num_tokens(H, W, P, cls_token=True):
    """The same count with true division, plus one for [CLS]."""
    n = H * W / (P * P)
    return n + 1 if cls_token else n


def patch_dim(P, C=1):
    """`patch_dim = in_channels * patch_size * patch_size`, MNIST's in_channels=1 as the default."""
    patch_dim = C * P * P
    return patch_dim
