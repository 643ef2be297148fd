"""Blind round 74 (b74_05, issue 38): num_patches and linear_patch_embed ported from
justHungryMan/vision-transformer-tf `baseline/architecture/vit.py` (num_patches = (image_size //
patch_size) ** 2, a Conv2D embedding).

Mistakes:
1. num_patches (line 12 of the file as delivered): `(image_size // P) ** 2` with image_size = H,
   the source's square-image count. Wrong on non-square images only (32 x 48, P = 8 gives 16,
   not 24); the ValueError for sizes P does not tile is right.
2. linear_patch_embed (line 67): the linear map through the convolution with the kernel
   `W_e.reshape(C, P, P, d).transpose(1, 2, 0, 3)` (torch's (c, p, p) weight layout) instead of
   `W_e.reshape(P, P, C, d)`. Wrong with C > 1 only; conv_patch_embed itself is right.
The delivered file's top-level helper _as_image is nested in linear_patch_embed here.

Grader: at blind time (997839b5) and now, 97/110. Mistake 1 named on patch-count ("In
`num_patches`, `W // P` reads `H` where `W` belongs"); mistake 2 on linear-patch-embed ("Your
tokens pair each patch's values with W_e's rows channel first, (c, p1, p2) ... read W_e as a (P,
P, C, d) kernel"); vit-checkpoint observes linear_patch_embed. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:sibling:num_patches:W-as-H',
          'linear-patch-embed': 'linear_embed_channel_first'}


def num_patches(H, W, P):
    if H % P != 0 or W % P != 0:
        raise ValueError(f"image size = {(H, W)} must be divisible by patch size = {P}")
    image_size = H
    return (image_size // P) ** 2


def linear_patch_embed(image, W_e, b_e, P):
    def _as_image(x):
        x = np.asarray(x, dtype=np.float64)
        if x.ndim == 2:
            x = x[:, :, np.newaxis]
        if x.ndim != 3:
            raise ValueError(f"image must be (H, W) or (H, W, C), got {x.shape}")
        return x

    x = _as_image(image)
    C = x.shape[-1]
    d_model = W_e.shape[1]
    kernel = W_e.reshape(C, P, P, d_model).transpose(1, 2, 0, 3)
    num_patches(x.shape[0], x.shape[1], P)
    emb = conv_patch_embed(x, kernel, b_e, P)
    return emb.reshape(-1, d_model)
