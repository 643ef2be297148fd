"""Blind round 29 (b29_05, issue 38): ported from Daniel Bourke's Zero to Mastery "PyTorch Paper
Replicating" notebook (PatchEmbedding.forward's `image_resolution = x.shape[-1]; assert
image_resolution % patch_size == 0`, `int((height * width) / patch_size**2)`, nn.LayerNorm).

Mistakes:
1. num_patches tests the width only for tiling: an image whose height alone P does not tile
   (30 x 32 with P = 16) returns a count instead of raising ValueError.
2. layer_norm's default eps is PyTorch's 1e-5, not the lecture's 1e-6.

Grader at blind time (3f39f45): the eps is named; the tiling check was told "refuses only sizes
neither of whose sides P tiles", a wrong claim: the code refuses (4, 6, 4) too, and no case it
let through had its width alone untiled. Since session 15 a refusal pattern is said only where
the cases it let through show each size it claims is let through (refusals.COUNTERS): the
check's checklist here, so the tiling mistake is unnamed.
Since session 16 (tiling): the width-only test and the count by area are named together
(tiling.tiling's `width-only` with tiling.count_by_area: the let-through 30 x 32 gets int(960 /
256) = 3): every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:tiling:num_patches:width-only+op:count_by_area:num_patches:count-by-area',
          'layer-norm': 'op:constant:layer_norm:eps=1e-05'}


def num_patches(H, W, P):
    """N = HW / P^2 (the notebook's equation-1 cell)."""
    image_resolution = W  # x.shape[-1] in PatchEmbedding.forward
    if P <= 0 or image_resolution % P != 0:
        raise ValueError(f"Input image size must be divisble by patch size, "
                         f"image shape: {image_resolution}, patch size: {P}")
    number_of_patches = int((H * W) / P ** 2)
    return number_of_patches


def layer_norm(x, gamma, beta, eps=1e-5):
    """nn.LayerNorm(normalized_shape=embedding_dim) forward."""
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta
