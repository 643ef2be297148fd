"""Blind round 51 (b51_02, issue 38): patchify ported from the torch `patchify(img, p)` of MAE-style
code (`h = w = img.shape[2] // p; x = img.reshape(3, h, p, w, p); x = torch.einsum('chpwq->hwpqc',
x); x = x.reshape(h * w, p ** 2 * 3)`), the image moved to (C, H, W) first and the tiling check
kept. The inside-patch order (p1, p2, c) and the raster order are right.

Mistakes:
1. `h = w = img.shape[2] // p`: the grid is taken as square from the width. On a non-square
   image the reshape does not fit and numpy raises ValueError (8x12x3, 12x8x3 with P = 2 or 4).
2. The channel count 3 is hard-coded (`reshape(3, ...)`, `p ** 2 * 3`): any image with C != 3
   (gray (H, W), (H, W, 1), (H, W, 2), the worked example's 4x4 gray image) raises ValueError.
linear_patch_embed, embed_image and vit_forward inherit both.

Grader: at blind time (b53db91d) and now, both named on patchify: "In `patchify`, the channel count
is written as 3, as code for RGB images hard-codes it (MAE's `patchify`: `reshape(3, h, p, w, p)`,
`p ** 2 * 3`), where it is `image.shape`'s last number: ..." (the worked example) and "2 mistakes
at once: (1) In `patchify`, `H // P` reads `W` where `H` belongs: `W // P`, a copy of its sibling
term (right only when W == H). (2) In `patchify`, the channel count is written as 3, ..." (RGB,
gray and hidden checks). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:sibling:patchify:H-as-W+op:channels_as_rgb:patchify:C-as-3'}


def patchify(image, P):
    image = _as_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)  # ValueError when the patches do not tile
    img = image.transpose(2, 0, 1)  # (C, H, W), as the torch code expects
    p = P
    h = w = img.shape[2] // p
    x = img.reshape(3, h, p, w, p)
    x = np.einsum('chpwq->hwpqc', x)
    x = x.reshape(h * w, p ** 2 * 3)
    return x
