"""Blind round 12 (b12_03, issue 38): Source style ported: facebookresearch/mae (util/pos_embed.py,
get_2d_sincos_pos_embed: `grid = np.meshgrid(grid_w, grid_h)  # here w goes first`) for the
position lookup, and timm PatchEmbed's grid-size bookkeeping for the count.

Mistake 1 (embed_image): the student lays the patch positions pos[1:] on the patch grid
"w first", as in MAE's meshgrid, i.e. pos[1:].reshape(gw, gh, d).transpose(1, 0, 2).reshape(N, d):
patch (r, c) receives position row c*gh + r (column-major) instead of r*gw + c. [CLS] still gets
pos[0]. Right: positions are added in the same raster order as the patches, pos[1:] row n to
patch n. Shows whenever the grid has more than one row and more than one column.
Mistake 2 (num_patches): the tiling check is `if H % P and W % P` (both sides must fail) instead
of `or`. Right: ValueError when either side does not tile. Shows only on non-square sizes where
exactly one side tiles (e.g. 224x230, P=16 returns 196 instead of raising); num_tokens follows.

Grader: positions observed (some_rows_wrong: "returns the expected values except in 2 of 5 rows"); the
`and` tiling check gets the generic checklist ("Floor division silently drops the leftover
pixels; raise ValueError instead"; in round 11 the same mistake got a wrong observation).
Nothing named.
Since session 16 (tiling): the `and` is named (tiling.tiling's `both-sides`); the positions are
still observed, so still in unnamed/.
Since session 17 the positions are named too (forward.positions_column_major: the table's patch
rows laid on the grid column by column): every mistake named, so in buggy/; vit-checkpoint
observes the broken embed_image (not in EXPECT).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:tiling:num_patches:both-sides',
          'cls-and-positions': 'op:positions_column_major:embed_image:pos-column-major'}


def num_patches(H, W, P):
    grid_h, grid_w = H // P, W // P
    if H % P != 0 and W % P != 0:
        raise ValueError(f"image size ({H}, {W}) not divisible by patch size {P}")
    return grid_h * grid_w


def embed_image(image, params):
    P = params["P"]
    image = _as_hwc(image)
    gh, gw = image.shape[0] // P, image.shape[1] // P
    tokens = linear_patch_embed(image, params["W_e"], params["b_e"], P)
    d = tokens.shape[1]
    pos = params["pos"]
    # lay the patch positions on the grid, w goes first (as in MAE's meshgrid)
    patch_pos = pos[1:].reshape(gw, gh, d).transpose(1, 0, 2).reshape(gh * gw, d)
    cls = params["cls"][None, :] + pos[:1]
    return np.concatenate([cls, tokens + patch_pos], axis=0)
