"""Blind round 82 (b82_11, issue 38): num_patches and conv_patch_embed ported from
tingyushi/Computer_Vision `ViT/hyperparameters.py`. The delivered file's top-level helper
`_to_hwc` is nested in conv_patch_embed here.

Mistakes:
1. num_patches (lines 7-9 of the file as delivered): `int((H / P) ** 2)`, a square image
   assumed, and only `H % P` tested: wrong count on non-square images (8 x 12 with P = 4 gives
   4, not 6), no ValueError when only W does not tile (num_tokens inherits it).
2. conv_patch_embed (lines 53-54): the output sized `H // stride` by `W // stride` instead of
   `(H - k) // stride + 1`: right when k == stride and the size tiles; otherwise a wrong shape,
   the last windows cut short at the edge (an error or wrong values).

Grader: at blind time (ee59f1b1) and now, 102/110. Mistake 1 named on patch-count ("the model
solution's `W // P` reads `H` where `W` belongs ... (right only when H == W)", and on the sizes
that do not tile a pair whose part (1) says the tiling test "tests the height only (`H % P`) ...
test `W % P` too"); mistake 2 named on kernel-stride ("the output grid is sized `H // stride` by
`W // stride` ... Count the outputs as `(H - k) // stride + 1`"). Every mistake named, so in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:sibling:num_patches:W-as-H',
          'kernel-stride': 'op:grid_by_stride:conv_patch_embed:windows-grid-H-over-stride'}
ALIASES = ('op:tiling:num_patches:height-only',)  # the same count's tiling test, height only


def num_patches(H, W, P):
    if H % P != 0:
        raise ValueError("HEIGHT must be divisible by PATCH_SIZE")
    NUM_OF_PATCH = int((H / P) ** 2)
    return NUM_OF_PATCH


def conv_patch_embed(image, K, b, stride):
    def _to_hwc(image):
        image = np.asarray(image, dtype=float)
        if image.ndim == 2:
            image = image[..., None]
        if image.ndim != 3:
            raise ValueError("image must be (H, W) or (H, W, C)")
        return image

    image = _to_hwc(image)
    H, W, C = image.shape
    kH, kW = K.shape[0], K.shape[1]
    if kH > H or kW > W:
        raise ValueError("kernel does not fit in the image")
    H_out = H // stride
    W_out = W // stride
    C_out = K.shape[-1]
    weight = K.reshape(kH * kW * C, C_out)
    out = np.empty((H_out, W_out, C_out))
    for h in range(H_out):
        for w in range(W_out):
            hs, ws = h * stride, w * stride
            out[h, w] = image[hs:hs + kH, ws:ws + kW, :].reshape(-1) @ weight
    return out + b
