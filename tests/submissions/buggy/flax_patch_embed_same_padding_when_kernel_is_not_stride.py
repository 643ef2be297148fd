"""Blind round 42 (b42_11, issue 38): conv_patch_embed and conv_equivalent ported from a Flax
vision-transformer package (code-search file id 5354342772: PatchEmbed with `patch_padding = 0
if self.patch_size == patch_stride else None`, None meaning padding "set so the spatial
dimensions are exactly divided by patch_stride"). conv_equivalent is right (CORRECT).

Mistakes:
1. conv_patch_embed: when the kernel and stride differ it adds TensorFlow 'SAME'-style zero
   padding (ceil(H / stride) outputs, pad_total split pad // 2 before, the rest after) instead
   of the valid cross-correlation. With k = stride it agrees.

Grader: at blind time (e77cb46), observed only: kernel-stride's "several kernels and strides"
(5x6x3, k=3, s=1: (5, 6, 2) for (3, 4, 2)) and hidden checks got the checklist "... for every
window that fits, with H' = (H - k) // stride + 1" (round 41's SAME hint, b41_08, pads always and
so missed the k == stride cases this code leaves unpadded). Now named on both kernel-stride checks
(stride_pads.pad_unless_tiling: "when the kernel size differs from the stride the image is
zero-padded as TensorFlow's padding='SAME' does ..."). In buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:pad_unless_tiling:conv_patch_embed:pad-same-unless-kernel-is-stride'}
CORRECT = ('conv_equivalent',)  # PatchEmbed's defaults: (P, P)


def conv_patch_embed(image, K, b, stride):
    """PatchEmbed.__call__ (Conv with patch_size, patch_stride, patch_padding), no layer norm."""
    x = _as_hwc(image)
    patch_size = K.shape[0]
    H, W, _ = x.shape
    if patch_size > H or patch_size > W:
        raise ValueError(f"kernel {patch_size} is larger than the {H}x{W} image")
    patch_stride = stride or patch_size
    patch_padding = 0 if patch_size == patch_stride else None

    if patch_padding is None:
        # padding set so the spatial dimensions are exactly divided by patch_stride
        out_h = -(-H // patch_stride)
        out_w = -(-W // patch_stride)
        pad_h = max((out_h - 1) * patch_stride + patch_size - H, 0)
        pad_w = max((out_w - 1) * patch_stride + patch_size - W, 0)
        x = np.pad(x, [(pad_h // 2, pad_h - pad_h // 2), (pad_w // 2, pad_w - pad_w // 2), (0, 0)])

    Hp, Wp, _ = x.shape
    out_h = (Hp - patch_size) // patch_stride + 1
    out_w = (Wp - patch_size) // patch_stride + 1
    windows = np.lib.stride_tricks.sliding_window_view(x, (patch_size, patch_size), axis=(0, 1))
    windows = windows[::patch_stride, ::patch_stride][:out_h, :out_w]      # (out_h, out_w, C, k, k)
    return np.einsum("ijcuv,uvcd->ijd", windows, K) + b


def conv_equivalent(P):
    """PatchEmbed defaults: patch_stride = patch_size, so kernel and stride are both P."""
    patch_size = P
    patch_stride = None or patch_size
    return (patch_size, patch_stride)
