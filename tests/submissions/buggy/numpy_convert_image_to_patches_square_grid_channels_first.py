"""Blind round 42 (b42_01, issue 38): patchify ported from a numpy
convert_image_to_patches(images, num_patches_1d) (code-search file id 16971411810): loops over an
(n, c, h, w) batch, the patch grid and `patch.flatten()` on each (c, P, P) slice.

Mistakes:
1. The grid is counted from the height alone, `num_patches_1d = h // P`, for the rows and the
   columns (the source assumes square images): a non-square image gets (H/P)^2 patches, not
   (H/P)(W/P). Square images agree.
2. Each patch is flattened channels first, (c, p1, p2), instead of (p1, p2, c). Shows only when
   C > 1.

Grader: at blind time (e77cb46) and now, both named together on patchify's RGB and hidden checks
("the grid of patches is counted n x n from the height, `n = H // P`" and "each patch is
flattened channels first, (c, p1, p2)"); the grayscale 6x9 case gets the true checklist of a
2-D image; vit-checkpoint observes patchify. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:channels_first:patchify:patch-flattened-channels-first+op:square_grid:patchify:columns-counted-from-H'}


def patchify(image, P):
    """(H, W, C) -> (N, P*P*C), after convert_image_to_patches (loops over the patch grid)."""
    image = np.asarray(image)
    if image.ndim == 2:
        image = image[:, :, None]
    if image.ndim != 3:
        raise ValueError(f"an image is (H, W) or (H, W, C), got shape {image.shape}")
    h, w, c = image.shape
    num_patches(h, w, P)  # ValueError when P does not tile the image

    # the helper works on a batch of channels-first images: (n, c, h, w)
    images = image.transpose(2, 0, 1)[None]
    num_patches_1d = h // P
    patch_size = h // num_patches_1d
    patches = np.zeros([images.shape[0], num_patches_1d ** 2, patch_dim(patch_size, c)])
    for index, img in enumerate(images):
        for i in range(num_patches_1d):
            for j in range(num_patches_1d):
                patch = img[:, i * patch_size: (i + 1) * patch_size, j * patch_size: (j + 1) * patch_size]
                patches[index, i * num_patches_1d + j] = patch.flatten()
    return patches[0]
