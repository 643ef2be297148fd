"""Blind round 5 (b5_13, issue 38): patchify with a list comprehension over the grid (Kaggle-notebook
style), conv_patch_embed with an output buffer made by np.zeros(..., dtype=image.dtype).

Mistakes:
1. patchify: the row loop runs over range(0, W, P) and the column loop over range(0, H, P)
   (H and W swapped in the bounds; the slices are image[i:i+P, j:j+P]). Right on square images;
   on non-square ones it makes the wrong number of patches, some cut short, and np.stack raises
   or the result is wrong. Shows only on non-square images.
2. conv_patch_embed: the output is stored in an array of the image's dtype; for an 8-bit image
   every result is truncated and wrapped to uint8. Right for float images; shows only on
   integer (uint8) images.

Grader: patchify's bounds are observed (right when H == W), not named; the convolution's buffer
is named (the result in the image's dtype).
Since session 15: its patchify mistake is observed (only_square_images), not named, so in unnamed/.
Since session 16 patchify's bounds are named too (grids.loop_bounds: np.stack's own error on a
non-square image, the check's images taller and wider), so every mistake is named: moved to
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:loop_bounds:patchify:grid-loop-bounds-swapped-stacked',
          'kernel-stride': 'op:narrowed:conv_patch_embed:result-in-image-dtype'}


def patchify(image, P):
    """Cut the image into P x P tiles, row by row, and flatten each tile."""
    image = _as_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)
    tiles = [image[i:i + P, j:j + P].reshape(-1)
             for i in range(0, W, P)
             for j in range(0, H, P)]
    return np.stack(tiles)


def conv_patch_embed(image, K, b, stride):
    """Valid cross-correlation, one output position at a time."""
    image = _as_hwc(image)
    k, _, C, d = K.shape
    H, W, _ = image.shape
    if k > H or k > W:
        raise ValueError(f"kernel {k} is larger than the {H}x{W} image")
    Ho, Wo = (H - k) // stride + 1, (W - k) // stride + 1
    out = np.zeros((Ho, Wo, d), dtype=image.dtype)
    for i in range(Ho):
        for j in range(Wo):
            patch = image[i * stride:i * stride + k, j * stride:j * stride + k]
            out[i, j] = np.einsum("xyc,xycd->d", patch, K) + b
    return out
