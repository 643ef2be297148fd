"""Blind round 29 (b29_13, issue 38): patchify ported from the PIL "split an image into tiles"
recipe (image_slicer style: `for left in range(0, width, P): for upper in range(0, height, P):
img.crop((left, upper, left + P, upper + P))`, PIL boxes are x first).

Mistakes:
1. patchify: the outer loop runs over x (columns), so the patches come out column-major. Right
   when the patch grid has one row or one column; wrong whenever it has two or more of each.
2. ANSWERS["positions"] = 'resolution' (positions let the model take larger images) instead of
   "permutation".

Grader: at blind time and now, named: "Your patches are numbered down the columns first"
(patchify_grid_transposed) on patchify; "Positions do not let a ViT take larger images ...
attention is permutation-equivariant" (positions:resolution) on why-positions; vit-checkpoint
observes the broken patchify. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_grid_transposed', 'why-positions': 'positions:resolution'}


def patchify(image, P):
    """Crop P x P tiles the PIL way, box = (left, upper, right, lower)."""
    img = np.asarray(image, dtype=float)
    if img.ndim == 2:
        img = img[..., np.newaxis]
    if img.ndim != 3:
        raise ValueError("expected an (H, W) or (H, W, C) image")
    height, width = img.shape[:2]
    num_patches(height, width, P)
    tiles = []
    for left in range(0, width, P):
        for upper in range(0, height, P):
            box = (left, upper, left + P, upper + P)
            tile = img[box[1]:box[3], box[0]:box[2], :]      # img.crop(box)
            tiles.append(tile.reshape(-1))
    return np.stack(tiles)


ANSWERS["positions"] = 'resolution'
