"""Blind round 41 (b41_07, issue 38): num_patches and linear_patch_embed after a "Vision
Transformer" notebook write-up (code-search file id 6451338506: Image to Patch, number_patches =
int((height * width) / (patch_size**2)); the ImageTokenizer's PatchExtractor, a Conv2d with
kernel_size = stride = patch_size, then its PatchTokenizer, Flatten(start_dim=2, end_dim=3) and
torch.reshape to (nbr_tokens, embedding)).

Mistakes:
1. num_patches: `int((H * W) / (P**2))`, the patches counted by area: never raises when P does
   not tile (10x10 with P=3 gives 11); right on tiling sizes.
2. linear_patch_embed: the convolution's channels-first (d, H/P, W/P) result flattened to
   (d, N) and reshaped to (N, d) with no transpose: the tokens are scrambled whenever N > 1 and
   d > 1.

Grader: at blind time (6092674), (1) named on patch-count (visible and hidden): no tiling test
and the count by area, `H * W // (P * P)`; (2) only checklists on linear-patch-embed ("each row
of the answer is one patch ... times W_e, plus b_e", "one row per patch in raster order"). Now
(2) is named too, on linear-patch-embed (visible and hidden): "the rows of `linear(patchify(image,
P), W_e, b_e)` are computed channels first, ... (d, N) for (N, d), and then reshaped to (N, d)
with no transpose". kernel-stride's equivalence check calls the broken linear_patch_embed (an
observation pointing at it); vit-checkpoint observes it too. Every mistake named: in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:tiling:num_patches:none+op:count_by_area:num_patches:count-by-area',
          'linear-patch-embed': 'op:tokens_channels_first:linear_patch_embed:rows-channels-first-reshaped'}


def num_patches(H, W, P):
    """N = H * W / P^2 (224 x 224 with P = 16 gives 196)."""
    number_patches = int((H * W) / (P**2))
    return number_patches


def linear_patch_embed(image, W_e, b_e, P):
    """Patch tokens (N, d): the ImageTokenizer of the notes, a Conv2d with kernel = stride = P
    (whose kernel is W_e), then the PatchTokenizer that flattens the grid into tokens."""
    image = _as_hwc(image)
    height, width, color_channels = image.shape
    embedding_size = W_e.shape[1]

    # PatchExtractor: Conv2d(kernel_size=(P, P), stride=P)
    kernel = W_e.reshape(P, P, color_channels, embedding_size)
    patches = conv_patch_embed(image, kernel, b_e, P)  # (H/P, W/P, d)
    patches = patches.transpose(2, 0, 1)               # (d, H/P, W/P), channels first as in torch

    # PatchTokenizer: Flatten(start_dim=2, end_dim=3), then reshape to (nbr_tokens, color)
    number_patches = num_patches(height, width, P)
    patches_flatten = patches.reshape(embedding_size, -1)
    patches_tokenized = np.reshape(patches_flatten, (number_patches, embedding_size))
    return patches_tokenized
