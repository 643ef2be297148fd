"""Blind round 21 (b21_08, issue 38): patchify and conv_patch_embed ported from
facebookresearch/convit (convit.py: PatchEmbed's nn.Conv2d on NCHW input, the (d, C, kh, kw)
conv weight layout, `img_size = int(num_patches**.5)`). The student's top-level helper `_to_chw`
is nested in both functions here: the builder replaces only the solution's own definitions.

Mistakes:
1. patchify flattens each patch channel-first, (c, p1, p2), a PyTorch conv weight's order,
   instead of (p1, p2, c): the same for one channel, wrong for three.
2. conv_patch_embed computes the output width from the height (`W_out = (H - k)//stride + 1`,
   ConViT's square img_size): right for square images, a wrong shape or an error otherwise.

Grader: at blind time and now, both named: the channel-first flatten, and the width's window count
read from H (on the random check its clipped variant); the K = W_e check gives its checklist;
vit-checkpoint observes the broken functions. Every mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_channel_first',
          'kernel-stride': 'op:window_count:conv_patch_embed:windows-W-count-from-H'}


def patchify(image, P):
    def _to_chw(image):
        return _as_hwc(image).transpose(2, 0, 1)  # NCHW without N

    x = _to_chw(image)
    C, H, W = x.shape
    num_patches(H, W, P)
    # (C, H/P, P, W/P, P) -> (H/P, W/P, C, P, P): one row per patch, flattened like a conv weight
    x = x.reshape(C, H // P, P, W // P, P).transpose(1, 3, 0, 2, 4)
    return x.reshape(-1, C * P * P)


def conv_patch_embed(image, K, b, stride):
    def _to_chw(image):
        return _as_hwc(image).transpose(2, 0, 1)  # NCHW without N

    x = _to_chw(image)
    C, H, W = x.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError(f"kernel_size {k} larger than input ({H}, {W})")
    H_out = (H - k) // stride + 1
    W_out = (H - k) // stride + 1
    weight = K.transpose(3, 2, 0, 1)  # (d, C, k, k), the nn.Conv2d layout
    out = np.empty((H_out, W_out, weight.shape[0]))
    for i in range(H_out):
        for j in range(W_out):
            win = x[:, i * stride:i * stride + k, j * stride:j * stride + k]
            out[i, j] = np.einsum("cij,dcij->d", win, weight)
    return out + b
