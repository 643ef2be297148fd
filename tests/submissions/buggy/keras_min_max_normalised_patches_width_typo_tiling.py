"""Blind round 16 (b16_10, issue 38): linear_patch_embed after the Keras "Image classification
with Vision Transformer" example (the image normalised first), num_patches in a numpy-ml style.

Mistakes:
1. linear_patch_embed min-max normalises the image before patchifying it.
2. num_patches checks the tiling with `(W / W).is_integer()`, a typo for W / P: the width is never
   checked.

Grader: at blind time and now, the width typo is told ("refuses sizes whose height P does not
tile, not those whose width alone it does not: test W % P too", refuses_height_only); the
normalisation gets only the linear-patch-embed and kernel-stride checklists. Not named.
Since session 14 the normalisation is named (dtypes.rescaled's min-max normalisation, `(image -
min) / (max - min)` first); the tiling typo is observed (refuses_height_only), not named, so still
in unnamed/.
Since session 16 (tiling): the tiling test is named as testing the height only (tiling.tiling's
`height-only`: the width typo never tests W % P): every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:tiling:num_patches:height-only',
          'linear-patch-embed': 'op:rescaled:linear_patch_embed:image-min-max-normalised'}


def num_patches(H, W, P):
    """Number of P x P tiles; the image must tile exactly."""
    if P <= 0 or not (H / P).is_integer() or not (W / W).is_integer():
        raise ValueError(f"patch size {P} does not tile a {H}x{W} image")
    return int(H / P) * int(W / P)


def linear_patch_embed(image, W_e, b_e, P):
    """Keras ViT example: normalise, Patches, then PatchEncoder's Dense projection."""
    image = np.asarray(image, dtype=float)
    lo, hi = image.min(), image.max()
    image = (image - lo) / (hi - lo) if hi > lo else image - lo
    patches = patchify(image, P)
    return patches @ W_e + b_e
