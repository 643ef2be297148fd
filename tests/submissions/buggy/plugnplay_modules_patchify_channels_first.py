"""Blind round 70 (b70_09, issue 38): patchify ported from ai-dawang/PlugNPlay-Modules
`特征维度转换.py` (channels-first thinking: to_3d / to_4d, 'b c h w' patterns, the image
transposed to (C, H, W)).

Mistakes:
1. patchify (line 54 of the file as delivered): `transpose(1, 3, 0, 2, 4)`, so each patch is
   flattened (c, p1, p2) instead of (p1, p2, c). Right for one channel; wrong for C > 1.

Grader: at blind time (3f040026) and now, 100/110, named on patchify ("You flattened each patch
channel first, (c, p1, p2)"). Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_channel_first'}


def patchify(image, P):
    def _chw(image):
        image = np.asarray(image, dtype=float)
        if image.ndim == 2:
            image = image[:, :, None]
        if image.ndim != 3:
            raise ValueError("image must be (H, W) or (H, W, C)")
        return image.transpose(2, 0, 1)  # B C H W convention, without B

    x = _chw(image)
    c, h, w = x.shape
    n = num_patches(h, w, P)
    # 'c (h p1) (w p2) -> (h w) (c p1 p2)'
    x = x.reshape(c, h // P, P, w // P, P)
    x = x.transpose(1, 3, 0, 2, 4)
    return x.reshape(n, c * P * P)
