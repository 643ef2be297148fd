"""Blind round 71 (b71_03, issue 38): patchify (with its `img_to_patch`) ported from
isaacwasserman/fct `utils.py` (img_to_patch, from torch to numpy).

Mistakes:
1. patchify, through img_to_patch (lines 42-45 of the file as delivered): the source's
   [H', W', C, p_H, p_W] layout flattened, so each patch is read channel first, (C, p_H, p_W),
   instead of (p1, p2, c). The patch order is right. Wrong with C > 1 only (2-D and
   single-channel images are right).
The delivered file's top-level helpers `img_to_patch`, `_chw` and `assert_shape` are nested here.

Grader: at blind time (3f040026) and now, 100/110, named on patchify ("You flattened each patch
channel first, (c, p1, p2) ... inside a patch the order is row, column, channel, (p1, p2, c)").
Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_channel_first'}


def patchify(image, P):
    def assert_shape(x, expected_shape):
        assert x.shape == expected_shape, f"Expected shape {expected_shape} but got {x.shape}"

    def img_to_patch(x, patch_size, flatten_channels=True):
        """x: array representing the image of shape [C, H, W]."""
        C, H, W = x.shape
        x = x.reshape(C, H // patch_size, patch_size, W // patch_size, patch_size)
        x = x.transpose(1, 3, 0, 2, 4)  # [H', W', C, p_H, p_W]
        x = x.reshape(-1, C, patch_size, patch_size)  # [H'*W', C, p_H, p_W]
        if flatten_channels:
            x = x.reshape(x.shape[0], -1)  # [H'*W', C*p_H*p_W]
        return x

    def _chw(image):
        image = np.asarray(image, dtype=float)
        if image.ndim == 2:
            image = image[None, :, :]
        elif image.ndim == 3:
            image = image.transpose(2, 0, 1)  # (H, W, C) -> (C, H, W)
        else:
            raise ValueError("image must be 2-D or 3-D")
        return image

    x = _chw(image)
    C, H, W = x.shape
    n = num_patches(H, W, P)
    patches = img_to_patch(x, P)
    assert_shape(patches, (n, patch_dim(P, C)))
    return patches
