"""Blind round 81 (b81_01, issue 38): num_patches and patchify ported from Ca3zsar/ImageCompression
`helpers/patches.py`.

Mistakes:
1. num_patches (lines 12-13 of the file as delivered): ceil division `-(-H // P)`, and no
   ValueError: sizes P does not tile (30 x 32 with P = 16) are counted with a partial patch at
   each edge. num_tokens inherits it.
2. patchify (lines 45-48): the source's zero padding to a multiple of P: an image P does not tile
   gives extra zero-padded patches instead of ValueError.

Grader: at blind time (b5c841e9) and now, 106/110. Mistake 1 named on patch-count ("You rounded up, counting a
partial patch at each edge ... raise ValueError instead of counting."); mistake 2 named on
patchify ("In `patchify`, the image is zero-padded at the bottom and right to a multiple of `P`
... raise ValueError instead of padding"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'ceiling_count', 'patchify': 'op:padded:patchify:image-padded-to-tile'}


def num_patches(H, W, P):
    # how many ph x pw tiles cover the image (rows of tiles times columns of tiles)
    n_rows = -(-H // P)
    n_cols = -(-W // P)
    return n_rows * n_cols


def patchify(image, P):
    # image: (H, W, C)
    # patch_shape: (ph, pw)
    image = np.asarray(image, dtype=float)
    if image.ndim == 2:
        image = image[:, :, None]
    if image.ndim != 3:
        raise ValueError("image must be (H, W) or (H, W, C)")

    H, W, C = image.shape
    ph, pw = P, P

    # pad image to be divisible by patch_shape
    pad_h = (ph - H % ph) % ph
    pad_w = (pw - W % pw) % pw

    image = np.pad(image, ((0, pad_h), (0, pad_w), (0, 0)), mode='constant')

    # split image into patches
    patches = []
    for i in range(0, H + pad_h, ph):
        for j in range(0, W + pad_w, pw):
            patch = image[i:i + ph, j:j + pw]
            patches.append(patch.reshape(-1))

    return np.array(patches)
