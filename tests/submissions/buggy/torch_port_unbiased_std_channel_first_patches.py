"""Blind round 5 (b5_09, issue 38): a port of PyTorch code to numpy: layer_norm from torch's x.std(-1)
idiom, patchify from the Conv2d weight layout (out, C, kh, kw).

Mistakes:
1. layer_norm: the unbiased variance, np.var(..., ddof=1), as torch.var/torch.std default to.
   Shows on every input (less as d grows).
2. patchify: each patch flattened channel-first, (c, p1, p2) order, as Conv2d's weight is laid
   out: transpose(0, 2, 4, 1, 3). Right for one-channel (2-D) images; shows only with C > 1.

Grader: Both are named.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_channel_first', 'layer-norm': 'layer_norm_unbiased'}


def layer_norm(x, gamma, beta, eps=1e-6):
    """F.layer_norm, written out."""
    u = np.mean(x, axis=-1, keepdims=True)
    s = np.var(x, axis=-1, keepdims=True, ddof=1)
    return gamma * (x - u) / np.sqrt(s + eps) + beta


def patchify(image, P):
    """Flattened patches; each patch laid out like a Conv2d kernel."""
    image = _as_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)
    gh, gw = H // P, W // P
    patches = image.reshape(gh, P, gw, P, C).transpose(0, 2, 4, 1, 3)   # (gh, gw, C, P, P)
    return patches.reshape(gh * gw, C * P * P)
