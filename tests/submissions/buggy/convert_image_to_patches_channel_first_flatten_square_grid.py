"""Blind round 46 (b46_07, issue 38): linear_patch_embed through a numpy
`convert_image_to_patches(images, num_patches_1d)` helper (code-search file id 16971411810),
which works on (N, C, H, W) batches.

Mistakes:
1. The helper works on (C, H, W): each patch is flattened (c, p1, p2), not (p1, p2, c) (wrong only
   with C > 1).
2. A square grid: `num_patches_1d = H // P` both ways, so a non-square image raises ValueError
   (could not broadcast), even with one channel ((8, 12, 3) and (12, 8, 1), P=4).

Grader: at blind time (78229091), neither named: the RGB check (4x6x3, raising) and the hidden
check had the `[checklist]` "... each flattened in (p1, p2, c) order ..." only; kernel-stride's
equivalence check an `[observation]` pointing at linear_patch_embed. Now both are named as one
slip of Pulfer's patchify ported through a (C, H, W) transpose (grids' `square_rows`, its
channels-first reading, now also in a helper the checked function calls): "the grid of patches
is counted n x n from the height ... Each patch is also read from the image moved to (C, H, W),
so it is flattened channel first, (c, p1, p2) ...". Moved to buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'linear-patch-embed': 'op:square_rows:linear_patch_embed/patchify:'
                                 'columns-counted-from-H-rows-from-size-channels-first'}


def linear_patch_embed(image, W_e, b_e, P):
    def convert_image_to_patches(images, num_patches_1d):
        """Convert image into patches (num_patches_1d in one direction, same in the other)."""
        n, c, h, w = images.shape
        patches = np.zeros([n, num_patches_1d**2, h * w * c // (num_patches_1d**2)])
        patch_size = h // num_patches_1d
        for index, img in enumerate(images):
            for i in range(num_patches_1d):
                for j in range(num_patches_1d):
                    patch = img[:, i * patch_size : (i + 1) * patch_size, j * patch_size : (j + 1) * patch_size]
                    patches[index, i * num_patches_1d + j] = patch.flatten()
        return patches

    image = _as_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)  # ValueError when P does not tile
    images = image.transpose(2, 0, 1)[None]  # (1, C, H, W) as the helper expects
    patches = convert_image_to_patches(images, H // P)[0]
    return patches @ W_e + b_e
