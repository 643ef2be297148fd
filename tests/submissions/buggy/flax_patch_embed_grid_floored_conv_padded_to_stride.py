"""Blind round 42 (b42_07, issue 38): num_patches and conv_patch_embed ported from a Flax PatchEmbed
(code-search file id 31832787041: grid_size = `s // p`; `hpad = (self.patch_size - H %
self.patch_size) % self.patch_size`, jnp.pad, then nn.Conv), with the course's stride.

Mistakes:
1. num_patches floors (grid_size) and never raises: (24, 40, 16) gives 2 and (20, 20, 16) gives
   1 where ValueError is expected. Tiling sizes agree.
2. conv_patch_embed zero-pads (stride - H % stride) % stride on both sides of each axis before
   the valid convolution, where the lecture floors with no padding. Agrees whenever H and W are
   multiples of the stride.

Grader: at blind time (e77cb46), mistake 1 named (floor_division_count: "floor division
silently drops the pixels that do not fit ... raise ValueError") on patch-count's two checks;
mistake 2 observed only (kernel-stride's "several kernels and strides", 7x8x3, k=2, s=3, and
hidden checks got the checklist "... for every window that fits, with H' = (H - k) // stride +
1"). Now mistake 2 is named too (stride_pads.pad_to_stride, both sides: "the image is
zero-padded to a multiple of the stride before the kernel slides over it ..."), on both
kernel-stride checks. In buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'floor_division_count',
          'kernel-stride': 'op:pad_to_stride:conv_patch_embed:pad-to-stride-multiple-both'}


def num_patches(H, W, P):
    """PatchEmbed.num_patches: grid_size[0] * grid_size[1]."""
    image_size = (H, W)
    patch_size = (P, P)
    grid_size = tuple([s // p for s, p in zip(image_size, patch_size)])
    return grid_size[0] * grid_size[1]


def conv_patch_embed(image, K, b, stride):
    """PatchEmbed.__call__ (pad, then the strided conv) on one (H, W, C) image."""
    x = _as_hwc(image)
    k = K.shape[0]
    H, W, _ = x.shape
    if k > H or k > W:
        raise ValueError(f"kernel {k} is larger than the {H}x{W} image")
    hpad = (stride - H % stride) % stride
    wpad = (stride - W % stride) % stride
    x = np.pad(x, [(hpad, hpad), (wpad, wpad), (0, 0)])
    Hp, Wp, _ = x.shape
    out_h = (Hp - k) // stride + 1
    out_w = (Wp - k) // stride + 1
    out = np.zeros((out_h, out_w, K.shape[-1]))
    for i in range(out_h):
        for j in range(out_w):
            window = x[i * stride: i * stride + k, j * stride: j * stride + k, :]
            out[i, j] = np.tensordot(window, K, axes=([0, 1, 2], [0, 1, 2])) + b
    return out
