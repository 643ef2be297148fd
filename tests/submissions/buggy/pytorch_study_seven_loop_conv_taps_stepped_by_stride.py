"""Blind round 38 (b38_04, issue 38): conv_patch_embed ported from Jun-yong-lee/pytorch_study,
function/convolution.py (class Conv, the seven-loop `conv()`: NCHW input, (out_c, in_c, k_h, k_w)
weights, `a_i += self.stride` and `a_j += self.stride` after each kernel tap, out-of-range taps
skipped as zero padding), with pad = 0.

Mistakes:
1. The input index advances by the stride for every kernel tap: the taps of a window are spaced
   by the stride (a dilation equal to the stride), `image[i*s + u*s, j*s + v*s]` where the
   lecture reads `image[i*s + u, j*s + v]`; taps past the edge are skipped. Right for stride 1
   only (8x8x3 with k = stride = 4: every patch read wrong).

Grader: at blind time (60400f1), not named: only checklists ("out[i, j] = sum(image[i*stride:
i*stride+k, ...]) ...", "The patch linear map is a convolution with kernel P and stride P ...
Check both: conv_patch_embed ... and linear_patch_embed ...", the generic conv_patch_embed
description on the hidden check). Since port38a named (dilation.taps_stepped): "the taps inside
each window step by the stride too: window (i, j) reads `image[i * stride + u * stride, ...]`
... the window is spread out (dilated) by the stride", on the visible and hidden checks. Every
mistake named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:taps_stepped:conv_patch_embed:windows-taps-stepped-by-stride'}


def conv_patch_embed(image, K, b, stride):
    """Conv.conv with pad = 0, dilation = 1: NCHW input, (out_c, in_c, k_h, k_w) weights."""
    image = _as_hwc(image)
    A = image.transpose(2, 0, 1)[None]          # (batch, in_c, in_h, in_w)
    B = np.asarray(K).transpose(3, 2, 0, 1)      # (out_c, in_c, k_h, k_w)
    batch, in_c, in_h, in_w = A.shape
    out_c, _, k_h, k_w = B.shape
    pad = 0
    if k_h > in_h or k_w > in_w:
        raise ValueError(f"kernel {k_h} is larger than the {in_h}x{in_w} image")
    out_h = (in_h - k_h + 2 * pad) // stride + 1
    out_w = (in_w - k_w + 2 * pad) // stride + 1

    def check_range(a, b):
        return a > -1 and a < b

    C = np.zeros((batch, out_c, out_h, out_w))
    # seven loop
    for bb in range(batch):
        for oc in range(out_c):
            # each channel of output
            for oh in range(out_h):
                for ow in range(out_w):
                    # one pixel of output shape
                    a_j = oh * stride - pad
                    for kh in range(k_h):
                        a_i = ow * stride - pad
                        for kw in range(k_w):
                            if check_range(a_j, in_h) and check_range(a_i, in_w):
                                C[bb, oc, oh, ow] += np.dot(A[bb, :, a_j, a_i], B[oc, :, kh, kw])
                            a_i += stride
                        a_j += stride
    return C[0].transpose(1, 2, 0) + b
