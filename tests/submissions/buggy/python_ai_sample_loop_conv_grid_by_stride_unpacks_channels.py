"""Blind round 44 (b44_04, issue 38): conv_patch_embed ported from Flowergift/Python_AI_Sample,
5110_1.py (a numpy multi-channel convolution with `for fn / row / col` loops, its output sized
like its input).

Mistakes:
1. conv_patch_embed: the output grid is `H // stride` x `W // stride` (the source's same-size
   output) instead of `(H - k) // stride + 1` x `(W - k) // stride + 1`: equal when k == stride
   (the patch case), otherwise too few windows, or end windows cut short by the image edge that
   raise a broadcast ValueError.
2. conv_patch_embed: `H, W, C = image.shape` with no 2-D handling: a gray (H, W) image raises
   ValueError (not enough values to unpack) instead of being one channel.

Grader: at blind time (0fc72e8) only checklists: the visible "several kernels and strides"
check (5x6x3, k=3, stride=1: the broadcast ValueError) got "... with H' = (H - k) // stride + 1
and W' likewise ...", the hidden one the conv_patch_embed checklist ("gray (H, W) or (H, W, C)
... H' = (H - k) // stride + 1"). Now both are named: the visible check by the grid
(stride_grid.grid_by_stride: "the output grid is sized `H // stride` by `W // stride` ..."), the
hidden one, whose gray cases raise at the unpacking, by the pair with inputs.not_promoted.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:not_promoted:conv_patch_embed:image-2d-not-promoted'
                          '+op:grid_by_stride:conv_patch_embed:windows-grid-H-over-stride'}


def conv_patch_embed(image, K, b, stride):
    """Valid cross-correlation: (H, W, C), K (k, k, C, d), b (d,) -> (H', W', d)."""
    image = np.asarray(image, dtype=float)
    H, W, C = image.shape
    k = K.shape[0]
    n_filter = K.shape[3]
    if k > H or k > W:
        raise ValueError(f"kernel {k} is larger than the {H}x{W} image")

    convolution = np.zeros((H // stride, W // stride, n_filter))

    for fn in range(n_filter):
        for row in range(H // stride):
            for col in range(W // stride):
                window = image[row * stride:row * stride + k, col * stride:col * stride + k]
                convolution[row, col, fn] = np.sum(window * K[:, :, :, fn]) + b[fn]

    return convolution
