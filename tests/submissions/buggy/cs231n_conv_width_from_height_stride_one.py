"""Blind round 6 (b6_06, issue 38): conv_patch_embed as CS231n's conv_forward_naive (explicit loops,
output size 1 + (H - HH) // stride), and conv_equivalent.

Mistakes:
1. conv_patch_embed: computes the output side once from H, `Ho = 1 + (H - k) // stride`, and uses it
   for both dimensions (square-image assumption). Shows only for non-square images: W' is wrong
   (too many columns raise/are cut, too few drop columns).
2. conv_equivalent: returns (P, 1), stride 1 as a CNN's default. Shows on every P (except P = 1).

Grader: Both are named on kernel-stride: conv_equivalent (stride 1), and conv_patch_embed's width
(the columns counted from H, a generated mistake).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:window_count:conv_patch_embed:windows-W-count-from-H'}
ALIASES = ('conv_equivalent_stride_one',)  # the file's other mistake, named on the same exercise


def conv_patch_embed(image, K, b, stride):
    """Naive valid cross-correlation with loops."""
    image = _as_hwc(image)
    H, W, C = image.shape
    HH, WW, _, F_ = K.shape
    if HH > H or WW > W:
        raise ValueError(f"kernel {HH} is larger than the {H}x{W} image")
    Ho = 1 + (H - HH) // stride
    out = np.zeros((Ho, Ho, F_))
    for i in range(Ho):
        for j in range(Ho):
            window = image[i * stride:i * stride + HH, j * stride:j * stride + WW, :]
            for f in range(F_):
                out[i, j, f] = np.sum(window * K[:, :, :, f]) + b[f]
    return out


def conv_equivalent(P):
    """(kernel_size, stride)."""
    return (P, 1)
