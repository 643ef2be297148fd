"""Blind round 35 (b35_10, issue 38): a public functional JAX module "Tiny Vision Transformer
for 32x32 grayscale images" (NUM_PATCHES = (IMAGE_SIZE // PATCH_SIZE) ** 2; forward(): patches
@ patch_proj, + pos_embed, then the CLS token in front), ported to num_patches and embed_image.

Mistakes:
1. num_patches returns (H // P) ** 2 (tiling still checked): right for square images only.
2. embed_image adds pos[:N] to the patch tokens BEFORE prepending [CLS]: rows 1.. get the
   positions shifted by one, [CLS] gets none. Wrong on every input with pos != 0.

Grader: at blind time (2f30801) and now, both named: "In `num_patches`, `W // P` reads `H`
where `W` belongs ..." (patch-count) and "In `embed_image`, `x + params['pos']` is added before
`np.vstack([params['cls'], x])` ... with `params['pos'][:len(x)]` ..." (cls-and-positions);
vit-checkpoint observes the broken embed_image. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:sibling:num_patches:W-as-H',
          'cls-and-positions': "op:concatenation:embed_image:params['pos']-first-rows-before-vstack"}


def num_patches(H, W, P):
    """NUM_PATCHES = (IMAGE_SIZE // PATCH_SIZE) ** 2."""
    if P <= 0 or H % P or W % P:
        raise ValueError(f"patch size {P} does not tile a {H}x{W} image")
    n_per_side = H // P
    return n_per_side ** 2


def embed_image(image, params):
    """forward(): patches @ patch_proj, + pos_embed, then the CLS token in front."""
    patches = patchify(image, params["P"])                  # [NUM_PATCHES, patch_dim]
    x = patches @ params["W_e"] + params["b_e"]             # [NUM_PATCHES, EMBED_DIM]
    x = x + params["pos"][None, :x.shape[0], :][0]

    cls = np.broadcast_to(params["cls"], (1, x.shape[-1]))
    x = np.concatenate([cls, x], axis=0)                    # [NUM_PATCHES+1, EMBED_DIM]
    return x
