"""Blind round 65 (b65_10, issue 38): patchify ported from phlippe/uvadlc_notebooks
`docs/tutorial_notebooks/tutorial15/Vision_Transformer.ipynb` (img_to_patch, [B, C, H, W]
layout). The student's top-level `img_to_patch` is nested in patchify here: the builder replaces
only the solution's own definitions.

Mistakes:
14. patchify via img_to_patch (line 70 of the file as delivered): `transpose(0, 2, 4, 1, 3, 5)`,
    the tutorial's [.., C, p_H, p_W] flatten, channels first, instead of (p1, p2, c). Wrong only
    when C > 1.

Grader: at blind time (0cd43d22) and now, 100/110, named. Mistake 14 on patchify's RGB and random
checks ("You flattened each patch channel first, (c, p1, p2). ... inside a patch the order is
row, column, channel, (p1, p2, c) ..."); the exercises built on patchify were graded with the
grader's patchify standing in; vit-checkpoint observes patchify. Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_channel_first'}


def patchify(image, P):
    """(H, W, C) -> (N, P*P*C) via the tutorial's img_to_patch."""
    def img_to_patch(x, patch_size, flatten_channels=True):
        """
        Inputs:
            x - array representing the image of shape [B, C, H, W]
            patch_size - Number of pixels per dimension of the patches (integer)
            flatten_channels - If True, the patches will be returned in a flattened format
                               as a feature vector instead of a image grid.
        """
        B, C, H, W = x.shape
        x = x.reshape(B, C, H // patch_size, patch_size, W // patch_size, patch_size)
        x = x.transpose(0, 2, 4, 1, 3, 5)  # [B, H', W', C, p_H, p_W]
        x = x.reshape(B, -1, *x.shape[3:])  # [B, H'*W', C, p_H, p_W]
        if flatten_channels:
            x = x.reshape(B, x.shape[1], -1)  # [B, H'*W', C*p_H*p_W]
        return x

    image = _as_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)  # raises ValueError when the patches do not tile
    x = image.transpose(2, 0, 1)[None]  # [1, C, H, W]
    return img_to_patch(x, P)[0]
