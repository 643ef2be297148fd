"""Lab 4 submission by someone used to PyTorch (NCHW, torch.var).

Mistakes (2):
- layer_norm uses the unbiased variance (ddof=1, torch.var's default).
- patchify flattens each patch channel-first (c, p1, p2), the order of a Conv2d weight's
  view, instead of (p1, p2, c). Identical for one channel.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_channel_first', 'layer-norm': 'layer_norm_unbiased'}


def patchify(image, P):
    """(H, W, C) -> (N, C*P*P), patches in raster order."""
    image = _as_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)
    x = image.transpose(2, 0, 1)                       # (C, H, W) like a torch tensor
    x = x.reshape(C, H // P, P, W // P, P)             # c (h p1) (w p2)
    x = x.transpose(1, 3, 0, 2, 4)                     # h w c p1 p2
    return x.reshape((H // P) * (W // P), C * P * P)


def layer_norm(x, gamma, beta, eps=1e-6):
    """(x - mean) / sqrt(var + eps) * gamma + beta."""
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True, ddof=1)
    return (x - mean) / np.sqrt(var + eps) * gamma + beta
