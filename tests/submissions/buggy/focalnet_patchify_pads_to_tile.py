"""Blind round 32 (b32_12, issue 38): microsoft/FocalNet,
detection/mmdet/models/backbones/focalnet.py (PatchEmbed.forward: F.pad to a multiple of the
patch size, then the patches), as patchify.

Mistakes:
1. patchify zero-pads the right and bottom to a multiple of P instead of raising ValueError
   when P does not tile: (5, 4, 1) P=2 returns 6 patches. (linear_patch_embed inherits it.)

Grader: at blind time (a78aae9) and now, named: "the image is zero-padded at the bottom and right
to a multiple of `P` before it is cut (timm's dynamic_img_pad, Swin's `F.pad`) ... raise
ValueError instead of padding" on patchify's two non-tiling checks. linear-patch-embed keeps its
points (the grader's patchify standing in). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:padded:patchify:image-padded-to-tile'}


def patchify(image, P):
    """PatchEmbed.forward: pad right and bottom to a multiple of the patch size, then cut the patches."""
    image = _as_hwc(image)
    H, W, C = image.shape
    patch_size = (P, P)
    if W % patch_size[1] != 0:
        image = np.pad(image, ((0, 0), (0, patch_size[1] - W % patch_size[1]), (0, 0)))
    if H % patch_size[0] != 0:
        image = np.pad(image, ((0, patch_size[0] - H % patch_size[0]), (0, 0), (0, 0)))
    H, W, C = image.shape
    Wh, Ww = H // patch_size[0], W // patch_size[1]
    x = image.reshape(Wh, patch_size[0], Ww, patch_size[1], C).transpose(0, 2, 1, 3, 4)
    return x.reshape(Wh * Ww, patch_size[0] * patch_size[1] * C)
