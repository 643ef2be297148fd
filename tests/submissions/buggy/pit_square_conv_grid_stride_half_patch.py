"""Blind round 32 (b32_09, issue 38): naver-ai/pit, pit.py (conv_embedding with the
PoolingTransformer's square `width = floor((image_size + 2 * padding - patch_size) / stride + 1)`
as conv_patch_embed; pit_s's patch_size=16, stride=8 as conv_equivalent).

Mistakes:
1. conv_patch_embed: the output grid is width x width, width computed from image.shape[0]
   only: wrong shape for non-square images ((6, 8, 3) k=2 s=2 gives (3, 3, d), not (3, 4, d));
   taller-than-wide images crash (a ValueError from einsum on a cut-off window).
2. conv_equivalent returns (P, P // 2) instead of (P, P).

Grader: at blind time (a78aae9) and now, both named on kernel-stride: "the columns of the output
are counted from H, `(H - k) // stride + 1`, where `(W - k) // stride + 1` belongs" and "the
result `(P, P)` is returned as `(P, P // 2)`"; the equivalence property (a taller-than-wide
image) gets its checklist. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:window_count:conv_patch_embed:windows-W-count-from-H'}
ALIASES = ('op:tuple_parts:conv_equivalent:part-2-halved',)  # the other, on the same exercise


def conv_patch_embed(image, K, b, stride):
    """conv_embedding: nn.Conv2d(in_channels, out_channels, kernel_size=patch_size, stride=stride, padding=0)."""
    image = _as_hwc(image)
    patch_size = K.shape[0]
    image_size = image.shape[0]
    padding = 0
    if patch_size > image.shape[0] or patch_size > image.shape[1]:
        raise ValueError(f"patch_size {patch_size} is larger than the image")
    width = math.floor((image_size + 2 * padding - patch_size) / stride + 1)
    out_channels = K.shape[-1]
    x = np.zeros((width, width, out_channels))
    for i in range(width):
        for j in range(width):
            window = image[i * stride:i * stride + patch_size, j * stride:j * stride + patch_size, :]
            x[i, j] = np.einsum("hwc,hwcd->d", window, K) + b
    return x


def conv_equivalent(P):
    """(kernel_size, stride) of the patch embedding conv, as PiT configures it (patch_size=16, stride=8)."""
    patch_size = P
    stride = patch_size // 2
    return (patch_size, stride)
