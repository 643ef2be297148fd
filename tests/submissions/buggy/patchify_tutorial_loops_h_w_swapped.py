"""A numpy tutorial's patch loop with the ranges swapped: rows run to W and columns to H, so a
square image is right and a non-square one gets the wrong patches.
Since session 15: its patchify mistake is observed (only_square_images), not named, so in unnamed/.
Since session 16 named (grids.loop_bounds: the loops' bounds swapped, np.array's own error on a
non-square image, the check's images taller and wider): moved to buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:loop_bounds:patchify:grid-loop-bounds-swapped-as-array'}


def patchify(image, P):
    if image.ndim == 2:
        image = image[:, :, None]
    H, W, C = image.shape
    if H % P or W % P:
        raise ValueError("patch size must divide the image")
    patches = []
    for i in range(0, W, P):
        for j in range(0, H, P):
            patches.append(image[i:i + P, j:j + P, :].reshape(-1))
    return np.array(patches)
