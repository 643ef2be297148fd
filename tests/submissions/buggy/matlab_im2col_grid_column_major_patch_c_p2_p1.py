"""Blind round 50 (b50_07, issue 38): patchify ported from MATLAB `im2col_ch.m` (a multichannel
im2col in 'distinct' mode; id 19507095661): a helper `im2col_distinct` does MATLAB's
`im2col(A, [P P], 'distinct')` (blocks column-major, each `block(:)` column-major), the channels
are stacked vertically, and the (P*P*C, N) result is transposed at the end.

Mistakes:
1. Patches are numbered column-major over the patch grid (top to bottom, then left to right)
   instead of raster order. Shows whenever the grid has more than one row and more than one
   column of patches (4x4 gray, P=2: patch order [0, 8, 2, 10] vs [0, 2, 8, 10]); P=1 on a gray
   image shows it alone.
2. Inside a patch the order is (c, p2, p1) (channel blocks, each column-major) instead of
   (p1, p2, c): wrong for every P > 1 (even C = 1: [0, 4, 1, 5] vs [0, 1, 4, 5]) and for C > 1
   with P = 1.

Grader: at blind time (593126bb), both named through code the file does not have: "In
`patchify`, `image` is read with its first two axes swapped, `image.swapaxes(0, 1)` (rows for
columns)." and, on RGB images, "2 mistakes at once: (1) In `patchify`, `image` is read with its
first two axes swapped, `image.swapaxes(0, 1)` (rows for columns). (2) In `patchify`, each patch
is flattened channels first, (c, p1, p2), `grid.transpose(0, 2, 4, 1, 3)` where
`grid.transpose(0, 2, 1, 3, 4)` belongs, ...": exact as behaviour, but the student wrote loops
and can find neither line.
The student's module-level helper `im2col_distinct` is nested in patchify here: the builder
replaces only the solution's own definitions.
Now named: both, in words a loop can be searched for: "2 mistakes at once: (1) In `patchify`,
`image` is read with its rows and columns swapped: the patches are numbered down the columns of the
grid first (top to bottom, then left to right) and each patch is read column by column (the model
solution's code read as if `image` were `image.swapaxes(0, 1)`). (2) In `patchify`, each patch is
flattened channels first: the channel varies slowest (all of a patch's values of its first channel,
then all of the next), ... (the model solution's code read as if `grid.transpose(0, 2, 1, 3, 4)`
were `grid.transpose(0, 2, 4, 1, 3)`)."; on gray images (1) alone.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:transposed_argument:patchify:image-axes-swapped+op:channels_first:patchify:patch-flattened-channels-first'}


def patchify(image, P):
    def im2col_distinct(A, P):
        """MATLAB im2col(A, [P P], 'distinct') for a 2-D array: one P*P column per block."""
        m, n = A.shape
        cols = []
        for j in range(0, n, P):
            for i in range(0, m, P):
                cols.append(A[i:i + P, j:j + P].flatten(order="F"))
        return np.array(cols).T

    im = _as_hwc(image)
    H, W, ch = im.shape
    num_patches(H, W, P)
    pdim = P * P

    # extract patches from first channel
    patches = im2col_distinct(im[:, :, 0], P)
    # number of patches
    n = patches.shape[1]
    # allocate room for the other channels
    patches = np.concatenate([patches, np.zeros(((ch - 1) * patches.shape[0], n), dtype=patches.dtype)])
    for c in range(1, ch):
        patches[c * pdim:(c + 1) * pdim, :] = im2col_distinct(im[:, :, c], P)
    return patches.T
