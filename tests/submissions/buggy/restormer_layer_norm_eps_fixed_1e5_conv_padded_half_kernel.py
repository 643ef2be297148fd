"""Blind round 32 (b32_04, issue 38): swz30/Restormer, basicsr/models/archs/restormer_arch.py
(WithBias_LayerNorm as layer_norm, OverlapPatchEmbed as conv_patch_embed).

Mistakes:
1. layer_norm: eps is hard-coded to 1e-5 inside the root; the `eps` argument is ignored (the
   default 1e-6 gives slightly different values, a small-variance input or eps=1e-2 clearly
   different ones).
2. conv_patch_embed: OverlapPatchEmbed's Conv2d(..., padding=k // 2): the image is zero-padded by
   k // 2 on each side (a "same" convolution) instead of a valid one: (4, 4) k=2 s=2 gives
   (3, 3, d) instead of (2, 2, d). Only k=1 agrees.

Grader: at blind time (a78aae9) and now, both named: "`eps` is fixed at 1e-05 (a library's usual
default) whatever is given" on layer-norm; "the image is zero-padded by k // 2 on every side
(PyTorch's padding=k // 2)" on kernel-stride, whose equivalence property gets its checklist.
Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'layer-norm': 'op:default:layer_norm:eps-as-1e-05',
          'kernel-stride': 'op:padding:conv_patch_embed:pad-half-kernel'}


def conv_patch_embed(image, K, b, stride):
    """OverlapPatchEmbed: nn.Conv2d(in_c, embed_dim, kernel_size=k, stride=stride, padding=k//2)."""
    image = _as_hwc(image)
    kernel_size = K.shape[0]
    H, W, in_c = image.shape
    if kernel_size > H or kernel_size > W:
        raise ValueError(f"kernel {kernel_size} is larger than the {H}x{W} image")
    embed_dim = K.shape[-1]
    padding = kernel_size // 2  # padding=1 for the 3x3 kernel
    x = np.pad(image, ((padding, padding), (padding, padding), (0, 0)))
    Hp, Wp = x.shape[:2]
    H_out = (Hp - kernel_size) // stride + 1
    W_out = (Wp - kernel_size) // stride + 1
    out = np.zeros((H_out, W_out, embed_dim))
    for i in range(H_out):
        for j in range(W_out):
            window = x[i * stride:i * stride + kernel_size, j * stride:j * stride + kernel_size, :]
            out[i, j] = np.tensordot(window, K, axes=([0, 1, 2], [0, 1, 2])) + b
    return out


def layer_norm(x, gamma, beta, eps=1e-6):
    """WithBias_LayerNorm over the last axis."""
    mu = x.mean(-1, keepdims=True)
    sigma = x.var(-1, keepdims=True)  # unbiased=False
    return (x - mu) / np.sqrt(sigma + 1e-5) * gamma + beta
