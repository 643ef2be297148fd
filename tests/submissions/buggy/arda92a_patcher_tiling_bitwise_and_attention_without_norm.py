"""Blind round 74 (b74_15, issue 38): num_patches, patchify and encoder_block ported from
arda92a/Vision-Transformer-Implementation-From-Scracth `Patcher.py` (and `MSA.py`).

Mistakes:
1. num_patches and patchify (check_patch_size, lines 11 and 13 of the file as delivered): the
   tiling test `height & patch_size != 0` (bitwise and, the source's `assert height &
   patch_size == 0`) where `%` belongs. Right for 224/16 and 8/4; raises ValueError for sizes
   that tile such as 24/8, 12/4, 6/2, 10/2, and does not raise for 20/8 or 10/4 (patchify then
   silently drops the edge).
2. encoder_block (multi_head_self_attention_block, line 123): LN1 is computed but attention is
   applied to x, so the block is x + attn(x); the MLP half is right.
The delivered file's top-level helpers check_patch_size and _to_hwc, and
multi_head_self_attention_block and mlp_block, are nested in the functions that call them here.

Grader: at blind time (997839b5) and now, 88/110. Mistake 2 named on encoder-block ("In
`encoder_block`, the LayerNorm (with `p['ln1_g']` and `p['ln1_b']`) is left out: its input goes
on as it is."). Mistake 1 at blind time not told: patch-count and patchify gave only their
checklists ("raise ValueError there instead of returning a count", "For any H, W and P that tile
the image: (H // P) * (W // P) patches"). Since adc71468 (error_model/confused_ops.py) named on
patch-count: "In `num_patches`, the tiling test (the model solution's `check_tiling(H, W, P)`)
computes `H & P` and `W & P` (bitwise and) where the model solution takes the remainders `H % P`
and `W % P`: a 16 x 48 image with P = 16, which P tiles, raises ValueError, and an 8 x 2 image
with P = 4 gets a count. ..."; patchify still got its checklists (on the 8 x 2 image with P = 4
its code returns an empty array of shape (0,), the `&` test and the model solution's patches of
the top-left part one of shape (0, 48)). Since 31cc957f (error_model/evidence.py's empty_alike: two
arrays of no element agree whatever their shapes, where the reference's value is not itself
empty) named on patchify too, with the crop its loops make: "In `patchify`, the tiling test (the
model solution's `check_tiling(H, W, P)`) computes `H & P` and `W & P` (bitwise and) ... an 8 x
2 image with P = 4 is let through. ... Then the image is cropped to the patches that fit before
it is cut ...".
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:tiling:num_patches:remainder-as-bitwise-and',
          'patchify': 'op:tiling:patchify:remainder-as-bitwise-and'
                      '+op:cropped:patchify:image-cropped-to-tile',
          'encoder-block': 'op:skip:encoder_block:skip-layer_norm'}


def num_patches(H, W, P):
    def check_patch_size(height: int, width: int, patch_size: int):
        if height & patch_size != 0:
            raise ValueError(f"Image Sizes must compatible with Patch size, Height: {height} not divisible in Patch Size: {patch_size}")
        if width & patch_size != 0:
            raise ValueError(f"Image Sizes must compatible with Patch size, Width: {width} not divisible in Patch Size: {patch_size}")

    check_patch_size(H, W, P)
    n_rows = W // P
    n_cols = H // P
    return n_rows * n_cols


def patchify(image, P):
    def check_patch_size(height: int, width: int, patch_size: int):
        if height & patch_size != 0:
            raise ValueError(f"Image Sizes must compatible with Patch size, Height: {height} not divisible in Patch Size: {patch_size}")
        if width & patch_size != 0:
            raise ValueError(f"Image Sizes must compatible with Patch size, Width: {width} not divisible in Patch Size: {patch_size}")

    def _to_hwc(img):
        img = np.asarray(img, dtype=float)
        if img.ndim == 2:
            img = img[:, :, np.newaxis]
        if img.ndim != 3:
            raise ValueError(f"Image must be [H,W] or [H,W,C], got {img.shape}")
        return img

    img = _to_hwc(image)
    height, width, _ = img.shape
    check_patch_size(height, width, P)
    n_rows = width // P
    n_cols = height // P
    patches = []
    for h in range(1, n_cols + 1, 1):  # h = 1,2,3 ... n_cols
        for w in range(1, n_rows + 1, 1):  # w = 1,2,3 ... n_rows
            patches.append(img[(h - 1) * P:h * P, (w - 1) * P:w * P].flatten())
    return np.array(patches)


def encoder_block(x, p, heads):
    def multi_head_self_attention_block(x, p, heads):
        layer_norm_x = layer_norm(x, p["ln1_g"], p["ln1_b"])
        msa_output = self_attention(x, p, heads)
        return msa_output

    def mlp_block(x, p):
        layer_norm_x = layer_norm(x, p["ln2_g"], p["ln2_b"])
        return gelu(layer_norm_x @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]

    x = multi_head_self_attention_block(x, p, heads) + x
    x = mlp_block(x, p) + x
    return x
