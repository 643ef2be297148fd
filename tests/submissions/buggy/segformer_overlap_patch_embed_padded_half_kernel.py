"""Blind round 43 (b43_13, issue 38): conv_patch_embed and conv_equivalent ported from
aviralksingh/Segmentation_BDD100k, models/overlap_patch_embed.py (`nn.Conv2d(in_chans,
embed_dim, kernel_size=patch_size, stride=stride, padding=(patch_size // 2, patch_size // 2))`,
then `rearrange(x, 'b c h w -> b (h w) c')`), as explicit loops. conv_equivalent is right.

Mistakes:
1. conv_patch_embed zero-pads the image by patch_size // 2 on every side instead of a valid
   convolution: wrong shape and values.

Grader: at blind time (b20830f) and now, named: "In `conv_patch_embed`, the image is zero-padded
by k // 2 on every side (PyTorch's padding=k // 2) ..." on kernel-stride's visible and hidden
checks; the equivalence check has its checklist. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:padding:conv_patch_embed:pad-half-kernel'}
CORRECT = ('conv_equivalent',)


def conv_patch_embed(image, K, b, stride):
    """overlap_patch_embed.proj for one channels-last image, as explicit loops."""
    x = _as_hwc(image)
    patch_size = K.shape[0]
    H, W, C = x.shape
    if patch_size > H or patch_size > W:
        raise ValueError(f"kernel {patch_size} is larger than the {H}x{W} image")
    pad = patch_size // 2
    x = np.pad(x, ((pad, pad), (pad, pad), (0, 0)))
    h = (H + 2 * pad - patch_size) // stride + 1
    w = (W + 2 * pad - patch_size) // stride + 1
    out = np.zeros((h, w, K.shape[3]))
    for i in range(h):
        for j in range(w):
            window = x[i * stride:i * stride + patch_size, j * stride:j * stride + patch_size, :]
            out[i, j] = np.tensordot(window, K, axes=([0, 1, 2], [0, 1, 2])) + b
    return out

def conv_equivalent(P):
    """Non-overlapping patches: kernel_size = patch_size and stride = patch_size."""
    kernel_size, stride = P, P
    return (kernel_size, stride)
