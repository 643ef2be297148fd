"""Blind round 53 (b53_10, issue 38): patchify ported from a torch patch_operation.py `patchify`
(find_string id 41680222236: unfold W, move it forward, then unfold H; "first move down, then move
right, 1 -> 4 -> 7 -> 2 ..."); the port flattens each patch (p1, p2, c) and raises ValueError in
place of the source's padding.

Mistakes:
1. The patches come out in column-major order over the grid (down first, then right) where the
   API wants raster order; the inside of each patch is right. Wrong whenever the grid has at
   least 2 rows and 2 columns; grids of one row or one column agree. linear_patch_embed,
   embed_image and vit_forward inherit it.

Grader: at blind time (0ec6739e) and now, named on patchify ("Your patches are numbered down the
columns first. The course numbers them in raster order, like reading: left to right along the top
row of patches, then the next row."); vit-checkpoint observes patchify. Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_grid_transposed'}


def patchify(image, P):
    """The flattened patches of one image: (H, W, C) -> (N, P*P*C); (H, W) is one channel.

    Lab 4, section 4 step 2. Row n is patch n in raster order over the patch grid (left to
    right, then top to bottom); inside a patch the order is row, column, channel (p1, p2, c):
    the worked example's top-left patch [[1, 2], [3, 4]] becomes [1, 2, 3, 4].
    ValueError when P does not tile the image or `image` is not 2-D or 3-D.
    """
    img = _as_hwc(image)
    H, W, C = img.shape
    p_h = p_w = P
    if P <= 0 or H % p_h or W % p_w:
        raise ValueError(f"patch size {P} does not tile a {H}x{W} image")

    # unfold width
    x = img.reshape(H, W // p_w, p_w, C).transpose(1, 0, 2, 3)
    # continue to unfold height
    x = x.reshape(W // p_w, H // p_h, p_h, p_w, C)
    return x.reshape(W // p_w * H // p_h, p_h * p_w * C)
