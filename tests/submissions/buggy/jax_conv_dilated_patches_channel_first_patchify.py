"""Blind round 26 (b26_04, issue 38): patchify ported from JAX's
`lax.conv_general_dilated_patches(x, (P, P), (P, P), 'VALID')`, whose feature dimension is ordered
[C, P, P], channel first. (The student's conv_patch_embed, the same patches times a kernel
reordered to [C, k, k] x d, is correct and grades as the solution's: left out.)

Mistakes:
1. patchify flattens each patch channel first, (c, p1, p2), where the course's order is
   (p1, p2, c): right for one channel only.

Grader: at blind time and now, named: "You flattened each patch channel first, (c, p1, p2)" on
patchify (the hint calls it the order of torch's Conv2d weights, where the port came from JAX);
vit-checkpoint observes the broken patchify. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_channel_first'}


def patchify(image, P):
    # port of lax.conv_general_dilated_patches(x, (P, P), (P, P), 'VALID'):
    # feature dimension ordered [C, P, P] (channel-major)
    image = _as_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)
    nh, nw = H // P, W // P
    lhs = image.transpose(2, 0, 1)                                   # (C, H, W)
    patches = lhs.reshape(C, nh, P, nw, P).transpose(1, 3, 0, 2, 4)  # (nh, nw, C, P, P)
    return patches.reshape(nh * nw, C * P * P)
