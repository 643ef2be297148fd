"""Blind round 47 (b47_11, issue 38): conv_patch_embed ported from squeakus/bitsandbytes
(convops/stride_conv.py, stride_conv(array, kernel, stride)), extended to C input channels and d
output channels.

Mistakes:
1. The output grid is `range(0, H - H % k - 1, stride)` (and likewise for W), not the
   (H - k) // stride + 1 window positions: with stride < k it reads truncated windows at the
   edge and raises, or misses rows; with k = 1 it drops the last row and column. Right when
   stride == k (the patch convolution).

Grader: at blind time (a4c32119), only observed: "several kernels and strides" (5x6x3, k3, s1)
raises "shape-mismatch for sum" at the tensordot line with the `[checklist]` "out[i, j] =
sum(...) * K) + b for every window that fits, with H' = (H - k) // stride + 1 ..."; the
equivalence check (4x1x1, P=1) and the hidden check `[checklist]`s only. Now named on "several
kernels and strides" and the hidden check (grid_end's `grid_end_from_remainder`: "the windows
start at `range(0, H - H % k - 1, stride)` down and `range(0, W - W % k - 1, stride)` across:
the end is taken from where the image's whole k x k tiles end, less one ..."; the hidden cases
tell it from the end without `- 1`); the equivalence check keeps its `[checklist]`. Moved to
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:grid_end_from_remainder:conv_patch_embed:windows-grid-to-tiles-end-less-one'}


def conv_patch_embed(image, K, b, stride):
    """stride_conv with a (k, k, C, d) kernel: every window times the kernel, summed, plus b."""
    array = _as_hwc(image)
    width, height, C = array.shape
    kernw, kernh = K.shape[0], K.shape[1]
    if kernw > width or kernh > height:
        raise ValueError(f"kernel {kernw} is larger than the {width}x{height} image")
    beg = 0
    end = kernw
    final = []
    xlim = (width - (width % kernw)) - 1
    for i in range(0, xlim, stride):
        k = []

        ylim = (height - (height % kernh)) - 1
        for j in range(0, ylim, stride):
            window = array[beg + i: end + i, beg + j: end + j]
            k.append(np.tensordot(window, K, axes=([0, 1, 2], [0, 1, 2])) + b)
        final.append(k)
    return np.array(final)
