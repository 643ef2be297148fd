"""Blind round 33 (b33_15, issue 38): linear_patch_embed ported from
walker-at/Replicating-the-An-Image-is-Worth-16x16-Words-Paper (modules/ViT_pieces.py,
PatchEmbedding: a Conv2d with kernel_size = stride = patch_size, Flatten, permute).

Mistakes:
1. The tutorial's `assert image_resolution % patch_size == 0` on one side only (the width here):
   a width that does not tile raises AssertionError, not ValueError.
2. The height is never checked and the patch map runs as a kernel = stride = P convolution,
   which floors: a height P does not tile silently drops its last rows ((5, 6, 3), P=2 gives
   6 patches where ValueError is asked for).

Grader: at blind time (c4f83ef), mistake 1 named ("Your code refused the input with `assert`
(AssertionError), where ValueError is asked for"), mistake 2 not told: no check gave
linear_patch_embed a height that does not tile (only a width). Now the refusal check also asks
(5, 6, 3) and (5, 5, 3) with P=2, after the width's (6, 5, 3): the verdict is still its first
failure, the assert (named), so the height is not told yet; once the assert is a ValueError it
is named (walker_patch_embed_width_tested_height_floored.py in buggy/). In unnamed/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'linear-patch-embed': 'refused_with_assert'}


def linear_patch_embed(image, W_e, b_e, P):
    patch_size = P
    x = np.asarray(image, dtype=float)
    if x.ndim == 2:
        x = x[:, :, None]

    # verify input shape
    image_resolution = x.shape[1]
    assert image_resolution % patch_size == 0, f'input image shape: {image_resolution} must be divisible by patch size: {patch_size}'

    # layer to turn an image into embedded patches: Conv2d(kernel_size=patch_size, stride=patch_size, padding=0)
    C = x.shape[-1]
    embedding_dim = W_e.shape[1]
    patchify_kernel = W_e.reshape(patch_size, patch_size, C, embedding_dim)
    x_patched = conv_patch_embed(x, patchify_kernel, b_e, patch_size)      # (H/P, W/P, d)

    # flatten the feature map dimensions into a single vector, embedding on the final dimension
    x_flattened = x_patched.reshape(-1, embedding_dim)
    return x_flattened
