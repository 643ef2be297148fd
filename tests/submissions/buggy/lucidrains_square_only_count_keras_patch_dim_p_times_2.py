"""Blind round 14 (b14_04, issue 38): early lucidrains vit-pytorch (one int image_size,
square images only) for num_patches, the Keras ViT example's patch length, and patchify as
einops' '(h p1) (w p2) c -> (h w) (p1 p2 c)' written with slicing (correct).

Mistakes:
1. num_patches raises ValueError("Input image must be square") whenever H != W and returns
   (H // P) ** 2 (right: accept every image that tiles, (H/P)(W/P)).
2. patch_dim returns P * 2 * C, a typo for P**2 * C: right only when P == 2.

Grader: at blind time and now, the square-only count is observed (only_square_images: "right
when H == W, wrong for a 224 x 160 image: use H and W each where they belong"; the guard itself
is not mentioned); patch_dim gets no hint at all. Nothing named.
Since session 14 patch_dim's `P * 2` is named (counts.doubled: `P * P` written `P * 2`) and the
square-only count's observation says the raise ("right when H == W, and raises ValueError for a
224 x 160 image"): an observation, not a named mistake, so still in unnamed/.
Since session 16 (tiling): the square-only guard is named (tiling.tiling's `square-only`: a 224 x
160 image that P tiles raises ValueError): every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:tiling:num_patches:square-only',
          'flatten-length': 'op:doubled:patch_dim:P-squared-as-doubled'}


def num_patches(H, W, P):
    """Number of patches, after early lucidrains vit-pytorch (image_size int, square images):
    assert image_size % patch_size == 0; num_patches = (image_size // patch_size) ** 2."""
    if H != W:
        raise ValueError(f"Input image must be square, got {H}x{W}")
    if P <= 0 or H % P:
        raise ValueError("Image dimensions must be divisible by the patch size.")
    return (H // P) ** 2


def patch_dim(P, C=3):
    """patch_dim = channels * patch_size ** 2 (Keras example's patch length)."""
    return P * 2 * C


def patchify(image, P):
    """einops rearrange(img, '(h p1) (w p2) c -> (h w) (p1 p2 c)') with plain slicing."""
    image = np.asarray(image)
    if image.ndim == 2:
        image = image[:, :, None]
    if image.ndim != 3:
        raise ValueError(f"an image is (H, W) or (H, W, C), got shape {image.shape}")
    H, W, C = image.shape
    if P <= 0 or H % P or W % P:
        raise ValueError(f"patch size {P} does not tile a {H}x{W} image")
    return np.stack([image[i:i + P, j:j + P, :].reshape(-1)
                     for i in range(0, H, P) for j in range(0, W, P)])
