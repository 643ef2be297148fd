"""Blind round 69 (b69_10, issue 38): conv_patch_embed and conv_equivalent ported from
aviralksingh/Segmentation_BDD100k `models/overlap_patch_embed.py`.

Mistakes:
1. conv_patch_embed (line 105 of the file as delivered): zero padding of `patch_size // 2` on
   each side, as the overlap patch embed has. Larger or shifted output for every k >= 2 (k = P
   = 2 gives (H/2 + 1, W/2 + 1)).
2. conv_equivalent (line 121): returns `(patch_size, stride, patch_size // 2)`, kernel,
   stride and padding, three numbers instead of two. Wrong for every P.

Grader: at blind time (cb37e6da) and now, 102/110. Mistake 1 named on kernel-stride ("In
`conv_patch_embed`, the image is zero-padded by k // 2 on every side ...; the lecture's
convolution is valid, without padding"). Mistake 2 not told: "conv_equivalent(P) is (P, P)"
and its hidden twin have only the checklist ("Return two integers, (kernel_size, stride)"),
the failure line showing "tuple of 3". Named since, in the same session
(checks/kinds/returned_items.py): "Your `conv_equivalent` returns 3 values, ...: the first two are
the expected ones on every case here, the rest is extra". Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:padding:conv_patch_embed:pad-half-kernel'}
ALIASES = ('extra_items_after_expected',)  # mistake 2, on the same exercise


def conv_patch_embed(image, K, b, stride):
    """overlap_patch_embed.proj: Conv2d(kernel_size=patch_size, stride=stride,
    padding=(patch_size // 2, patch_size // 2)), channels last."""
    image = _as_hwc(image)
    patch_size = K.shape[0]
    H, W, C = image.shape
    if patch_size > H or patch_size > W:
        raise ValueError(f"kernel {patch_size} is larger than the {H}x{W} image")
    pad = patch_size // 2
    x = np.pad(image, ((pad, pad), (pad, pad), (0, 0)))
    Hp, Wp = x.shape[:2]
    h = (Hp - patch_size) // stride + 1
    w = (Wp - patch_size) // stride + 1
    out = np.zeros((h, w, K.shape[-1]))
    for i in range(h):
        for j in range(w):
            window = x[i * stride:i * stride + patch_size, j * stride:j * stride + patch_size, :]
            out[i, j] = np.tensordot(window, K, axes=([0, 1, 2], [0, 1, 2])) + b
    return out


def conv_equivalent(P):
    """The Conv2d of the patch embedding: (kernel_size, stride, padding) as in overlap_patch_embed."""
    patch_size, stride = P, P
    return (patch_size, stride, patch_size // 2)
