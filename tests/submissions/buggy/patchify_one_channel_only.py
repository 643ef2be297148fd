"""patchify written for grayscale images: each patch flattened to P*P numbers, whatever C is.
Since session 15: its patchify mistake is observed (only_one_channel), not named, so in unnamed/.
Grader: since session 16 named (channels.one_channel_rows: the reference's
`grid.reshape(N, P * P * C)` written `grid.reshape(-1, P * P)`, C rows per patch): back in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:one_channel_rows:patchify:C-left-out-of-rows'}


def patchify(image, P):
    image = np.asarray(image, dtype=float)
    if image.ndim not in (2, 3):
        raise ValueError("an image is (H, W) or (H, W, C)")
    H, W = image.shape[:2]
    num_patches(H, W, P)
    patches = image.reshape(H // P, P, W // P, P, -1).swapaxes(1, 2)
    return patches.reshape(-1, P * P)               # one number per pixel
