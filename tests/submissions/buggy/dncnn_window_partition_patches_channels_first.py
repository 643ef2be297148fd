"""Blind round 83 (b83_04, issue 38): patchify ported from Martian-League/DNCNN `windows.py`.
The delivered file's top-level helper `window_partition` is nested in patchify here.

Mistakes:
1. patchify (lines 47-49 of the file as delivered): the image moved channels first for the
   source's (C, H, W) `window_partition`, whose windows come out (C, P, P) and are flattened
   as they are: each patch in (c, p1, p2) order instead of (p1, p2, c). Right for gray images
   only (linear_patch_embed, embed_image and vit_forward inherit it).

Grader: at blind time (2774dae9) and now, 100/110. Mistake 1 named on patchify ("You flattened
each patch channel first, (c, p1, p2) ... inside a patch the order is ... (p1, p2, c)"). Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_channel_first'}


def patchify(image, P):
    def window_partition(x, window_size):
        """
        Args:
            x: (C, H, W)
            window_size (int): window size

        Returns:
            windows: (num_windows, C, window_size, window_size)
        """
        C, H, W = x.shape
        x = x.reshape(C, H // window_size, window_size, W // window_size, window_size)
        windows = x.transpose(1, 3, 0, 2, 4).reshape(-1, C, window_size, window_size)
        return windows

    img = np.asarray(image)
    if img.ndim == 2:
        img = img[:, :, None]
    if img.ndim != 3:
        raise ValueError("image must be 2-D or 3-D")
    H, W, C = img.shape
    num_patches(H, W, P)
    x = img.transpose(2, 0, 1)           # channels first, as in the window code
    windows = window_partition(x, P)
    return windows.reshape(windows.shape[0], -1)
