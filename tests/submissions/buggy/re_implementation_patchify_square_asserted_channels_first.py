"""Blind round 68 (b68_01, issue 38): patchify ported from akshathmangudi/Re-Implementation
`utils/methods.py` (patchify: a torch loop over the patch grid of an (n, c, h, w) batch).

Mistakes:
1. patchify (line 74 of the file as delivered): the source's `assert h == w, "Only square images
   supported"` kept: a non-square image that P tiles raises AssertionError, where the solution
   returns its patches. Wrong on non-square images only.
2. patchify (lines 79-83): each patch sliced from the (c, h, w) view and `patch.flatten()`-ed:
   the order inside a patch is (c, p1, p2) instead of (p1, p2, c). Wrong with C > 1 only.

Grader: at blind time (766069c5) and now, 99/110, both named, as a pair, on patchify's three
failed checks ("2 mistakes at once: (1) In `patchify`, a non-square image (H != W) is refused (an
error is raised for it) ... (2) In `patchify`, each patch is flattened channels first"; the
grayscale check fails on the assert alone and is told the pair too, each part true of the code);
vit-checkpoint observes the broken `patchify`. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:guarded:patchify:non-square-refused'
                      '+op:channels_first:patchify:patch-flattened-channels-first'}


def patchify(image, P):
    """The flattened patches of one image: (H, W, C) -> (N, P*P*C); (H, W) is one channel.

    Lab 4, section 4 step 2. Row n is patch n in raster order over the patch grid (left to
    right, then top to bottom); inside a patch the order is row, column, channel (p1, p2, c):
    the worked example's top-left patch [[1, 2], [3, 4]] becomes [1, 2, 3, 4].
    ValueError when P does not tile the image or `image` is not 2-D or 3-D.
    """
    # ported from my ViT re-implementation notes (utils/methods.py, patchify):
    # the torch version works on (n, c, h, w) and loops over the patch grid
    image = _as_hwc(image)
    h, w, c = image.shape
    num_patches(h, w, P)  # raises ValueError when the patches do not tile
    assert h == w, "Only square images supported"
    n_patches = h // P
    patch_size = P
    patches = np.zeros((n_patches ** 2, h * w * c // n_patches ** 2))

    chw = image.transpose(2, 0, 1)  # (c, h, w) like the torch image
    for i in range(n_patches):
        for j in range(n_patches):
            patch = chw[:, i * patch_size:(i + 1) * patch_size, j * patch_size:(j + 1) * patch_size]
            patches[i * n_patches + j] = patch.flatten()
    return patches
