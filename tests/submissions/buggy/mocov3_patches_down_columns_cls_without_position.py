"""Blind round 58 (b58_09, issue 38): patchify and embed_image ported from
facebookresearch/moco-v3 `vits.py` (VisionTransformerMoCo.build_2d_sincos_position_embedding's
`torch.meshgrid(grid_w, grid_h)`, its zero `pe_token` for [CLS]).

Mistakes:
14. patchify (lines 39-41 of the file as delivered) enumerates the patch grid with moco-v3's
    `meshgrid(grid_w, grid_h, indexing="ij")`, which walks column by column (top to bottom, then
    left to right) instead of in raster order; linear_patch_embed, embed_image and vit_forward
    call it. Wrong on every image whose patch grid has at least 2 rows and 2 columns (square or
    not); a single row or column is right.
15. embed_image (lines 72-74) adds `pos[1:]` to the patch tokens only and prepends [CLS] with no
    position (moco-v3's zero position for [CLS]). Wrong whenever pos[0] != 0.

Grader: at blind time (ba46f523) and now, 92/110, both named. Mistake 14 on patchify's four
value checks ("Your patches are numbered down the columns first. The course numbers them in raster
order, like reading: left to right along the top row of patches, then the next row."); the
exercises built on patchify keep full marks around it (linear-patch-embed, kernel-stride with a
correct patchify standing in). Mistake 15 on cls-and-positions' random checks ("You added the
positions before prepending [CLS], so the patches got pos[1:] and [CLS] got no position at all.
..."); vit-checkpoint observes embed_image. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_grid_transposed',
          'cls-and-positions': 'embed_positions_before_cls'}


def patchify(image, P):
    """Split an (H, W, C) image into (N, P*P*C) patches, row by row."""
    x = np.asarray(image)
    if x.ndim == 2:
        x = x[:, :, None]
    if x.ndim != 3:
        raise ValueError("image must be (H, W) or (H, W, C)")
    H, W, C = x.shape
    num_patches(H, W, P)
    h, w = H // P, W // P
    grid_w = np.arange(w)
    grid_h = np.arange(h)
    grid_w, grid_h = np.meshgrid(grid_w, grid_h, indexing="ij")
    out = [x[i * P:(i + 1) * P, j * P:(j + 1) * P, :].reshape(-1)
           for i, j in zip(grid_h.flatten(), grid_w.flatten())]
    return np.stack(out).reshape(h * w, P * P * C)


def embed_image(image, params):
    """The token sequence (N + 1, d)."""
    x = linear_patch_embed(image, params["W_e"], params["b_e"], params["P"])
    x = x + params["pos"][1:]
    cls_token = params["cls"][None, :]
    return np.concatenate([cls_token, x], axis=0)
