"""Blind round 48 (b48_02, issue 38): patchify ported from a numpy port of the UvA DL tutorial's
`img_to_patch` (code-search file id 1431486356): `B, H, W, C = x.shape`, then the torch tutorial's
`x.reshape(B, C, H//p, p, W//p, p)`, `x.transpose(0, 2, 4, 1, 3, 5)` and `reshape(B, -1, C*p*p)`
kept. The port adds a batch axis with `[np.newaxis]`, calls num_patches for the ValueError and
returns `x[0]`.

Mistakes:
1. An (H, W, C) array reshaped as if it were (C, H, W), each patch flattened (c, p1, p2): the
   shape is right, (N, P*P*C), but for C > 1 the values are scrambled. C = 1 and gray images are
   right (the memory layouts coincide).

Grader: at blind time (4b7c886d) and now, named: "In `patchify`, the channels-last (H, W, C)
image is cut as if it were channels first, `image.reshape(C, H // P, P, W // P, P)` where
`image.reshape(H // P, P, W // P, P, C)` belongs, with no transpose before it ... each patch is
then flattened (c, p1, p2), as torch's `img_to_patch` does ..." on patchify (raster order on RGB
images, random images); vit-checkpoint observes patchify. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:channels_read_first:patchify:read-channels-first-flattened-channels-first'}


def patchify(image, P):
    """img_to_patch, the numpy port of the UvA DL tutorial's, on a batch of one."""
    x = _as_hwc(image)[np.newaxis]      # one image -> a batch of one
    B, H, W, C = x.shape
    num_patches(H, W, P)
    patch_size = P
    x = x.reshape(B, C, H // patch_size, patch_size, W // patch_size, patch_size)
    x = x.transpose(0, 2, 4, 1, 3, 5)
    x = x.reshape(B, -1, C * patch_size * patch_size)
    return x[0]
