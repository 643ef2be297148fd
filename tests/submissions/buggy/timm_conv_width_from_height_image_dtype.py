"""Blind round 4 (b4_01, issue 38), timm's PatchEmbed as explicit loops, with two mistakes in
conv_patch_embed: the output width is computed from H, out_w = (H - kw) // stride + 1 (timm's
square img_size), so a non-square image gets too few columns (W > H) or short windows and an
exception (W < H); and the output buffer is np.zeros(..., dtype=x.dtype), so an 8-bit (uint8)
image's float results are cut to uint8 integers. Both are named together on the check with the
uint8 case, the width alone on the hidden check (no uint8 case there).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:window_count:conv_patch_embed:windows-W-count-from-H'
                           '+op:narrowed:conv_patch_embed:result-in-image-dtype'}


def conv_patch_embed(image, K, b, stride):
    """Valid cross-correlation (H, W, C) * K (k, k, C, d) + b -> (H', W', d), as nn.Conv2d does."""
    x = np.asarray(image)
    if x.ndim == 2:
        x = x[..., None]
    H, W, C = x.shape
    kh, kw, _, d = K.shape
    if kh > H or kw > W:
        raise ValueError(f"kernel {kh} is larger than the {H}x{W} image")
    out_h = (H - kh) // stride + 1
    out_w = (H - kw) // stride + 1
    out = np.zeros((out_h, out_w, d), dtype=x.dtype)
    for i in range(out_h):
        for j in range(out_w):
            patch = x[i * stride:i * stride + kh, j * stride:j * stride + kw, :]
            out[i, j] = np.einsum('hwc,hwcd->d', patch, K) + b
    return out
