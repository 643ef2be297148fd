"""Blind round 76 (b76_01, issue 38): patchify and conv_patch_embed ported from
jinghuayao/vision-transformer-numpy `vit_numpy.py`.

Mistakes:
1. patchify (line 69 of the file as delivered): `n = H // P` used for both grid axes (the source
   asserts square images). A non-square image that tiles raises a numpy reshape ValueError.
   Wrong on non-square images only.
2. conv_patch_embed (line 92): `n = (H - k)//stride + 1` used for both output axes, an (n, n, D)
   output: truncated when W > H, an error when W < H. Wrong on non-square images only.
The delivered file's top-level helper `_to_hwc` is nested in each function here.

Grader: at blind time (fe8b70f1) and now, 98/110. Mistake 1 named on patchify ("In `patchify`,
the model solution's `W // P` reads `H` where `W` belongs: `H // P`, a copy of its sibling term
(right only when H == W)"), mistake 2 on kernel-stride ("the columns of the output are counted
from H, `(H - k) // stride + 1`, where `(W - k) // stride + 1` belongs"). Every mistake named,
so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'op:sibling:patchify:W-as-H',
          'kernel-stride': 'op:window_count:conv_patch_embed:windows-W-count-from-H'}


def patchify(image, P):
    """Split an image into flattened patches: (N, P*P*C), N = (H/P)^2 patches, raster order."""
    def _to_hwc(image):
        # (H, W) -> (H, W, 1); (H, W, C) unchanged
        image = np.asarray(image, dtype=np.float64)
        if image.ndim == 2:
            image = image[:, :, None]
        if image.ndim != 3:
            raise ValueError(f"expected (H, W) or (H, W, C), got {image.shape}")
        return image

    x = _to_hwc(image)
    H, W, C = x.shape
    num_patches(H, W, P)
    n = H // P  # patches per side
    # (H,W,C) -> (n,P,n,P,C) -> (n,n,P,P,C) -> (N,P*P*C)
    xp = x.reshape(n, P, n, P, C).transpose(0, 2, 1, 3, 4)
    return xp.reshape(n * n, P * P * C)


def conv_patch_embed(image, K, b, stride):
    """Valid cross-correlation, kernel K (k, k, C, D) -> (H', W', D); H' = (H - k)//stride + 1."""
    def _to_hwc(image):
        image = np.asarray(image, dtype=np.float64)
        if image.ndim == 2:
            image = image[:, :, None]
        if image.ndim != 3:
            raise ValueError(f"expected (H, W) or (H, W, C), got {image.shape}")
        return image

    x = _to_hwc(image)
    H, W, C = x.shape
    k, D = K.shape[0], K.shape[-1]
    if k > H or k > W:
        raise ValueError(f"kernel {k} larger than image {H}x{W}")
    n = (H - k) // stride + 1  # outputs per side
    Kcol = K.reshape(k * k * C, D)  # (k*k*C, D)
    out = np.zeros((n, n, D))
    for i in range(n):
        for j in range(n):
            win = x[i * stride:i * stride + k, j * stride:j * stride + k, :]  # (k,k,C)
            out[i, j] = win.reshape(-1) @ Kcol + b  # (D,)
    return out
