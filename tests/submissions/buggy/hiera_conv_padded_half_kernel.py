"""Blind round 25 (b25_12, issue 38): conv_patch_embed ported from Hiera's `PatchEmbed`
(facebookresearch/hiera, hiera.py: `nn.Conv2d(..., kernel_size=kernel, stride=stride,
padding=padding)` with patch_kernel (7, 7), patch_stride (4, 4), patch_padding (3, 3): a padding of
kernel // 2 on every side).

Mistakes:
1. conv_patch_embed zero-pads the image by k // 2 on every side before a valid convolution: the
   output is larger and every window is shifted.

Grader: at blind time and now, named: the image zero-padded by k // 2 on every side (PyTorch's
padding=k // 2) on kernel-stride (the kernel-P stride-P check gives its checklist). Every mistake
named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:padding:conv_patch_embed:pad-half-kernel'}


def conv_patch_embed(image, K, b, stride):
    """Hiera PatchEmbed: Conv2d(kernel_size=k, stride=stride, padding=k // 2), channels last."""
    image = _as_hwc(image)
    k = K.shape[0]
    H, W, C = image.shape
    if k > H or k > W:
        raise ValueError(f"kernel {k} is larger than the {H}x{W} image")
    pad = k // 2
    x = np.pad(image, ((pad, pad), (pad, pad), (0, 0)))
    Hp, Wp = x.shape[:2]
    out_h = (Hp - k) // stride + 1
    out_w = (Wp - k) // stride + 1
    out = np.empty((out_h, out_w, K.shape[3]))
    for i in range(out_h):
        for j in range(out_w):
            window = x[i * stride:i * stride + k, j * stride:j * stride + k, :]
            out[i, j] = np.einsum("hwc,hwcd->d", window, K) + b
    return out
