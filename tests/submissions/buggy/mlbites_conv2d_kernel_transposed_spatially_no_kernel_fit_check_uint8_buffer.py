"""Blind round 35 (b35_05, issue 38): conv_patch_embed ported from taesiri/MLBites,
db/conv2d_numpy/solution.py (conv2d_forward: NCHW input, (C_out, C_in, kH, kW) weight, window
loops, no input validation), with the (k, k, C, d) kernel turned into that layout by
`K.transpose(3, 2, 1, 0)`.

Mistakes:
1. `K.transpose(3, 2, 1, 0)` (should be (3, 2, 0, 1)): the kernel is transposed spatially, rows
   for columns. Wrong for any kernel that is not spatially symmetric; breaks the kernel/stride
   equivalence with linear_patch_embed.
2. No ValueError when the kernel is larger than the image: where (H - k) // stride == -1 an empty
   array is returned (k >= H + 2 with stride 1 happens to raise numpy's own ValueError).
3. (found in porting, not in the key) the output buffer is made in the image's dtype, MLBites'
   `np.zeros(..., dtype=x.dtype)`: for a uint8 image the window sums are truncated and `out +=
   bias` raises numpy's UFuncTypeError (a float bias into a uint8 array): the visible check's
   8-bit case.

Grader: at blind time (2f30801): #1 named on the hidden kernel-stride check ("`K` is read with its
first two axes swapped, `K.swapaxes(0, 1)`"); the visible check shows a ramp image and says
"[observation] hint: Your `conv_patch_embed` returns the expected values plus the same vector in
every row, such as a bias (it takes `b`, ...)": the vector is not b (the file adds b once), so
the suggested cause is wrong. #2 only a `[checklist]` ("A 3x3 kernel does not fit in a 2-pixel-high
image: raise ValueError."). port35a first made that observation suggest no cause (a bias only
where the vector is a multiple of `b`: "plus the same vector in every row."); since then all
three are named: dtypes.py's bias_in_place (the sums written into a buffer in
the image's dtype, `b` added in place: numpy's casting error on 8-bit pixels) with K-axes-swapped
as a pair on the visible "several kernels and strides" check, and kernel_fit.py's
kernel_untested with that pair on "a kernel larger than the image raises ValueError"
(`named_refusal` pairs a test with a mistake another check named; two edits of the whole
function, the test dropped and K read anew, are now both applied). Every mistake named, so in
buggy/. Since round 54 the kernel check, whose two cases are blank float images where neither the
kernel's transpose nor the uint8 buffer shows, is told #2 alone (kernel_untested); #1 and #3 are
named where they show, on "several kernels and strides" (their pair) and the hidden check (#1).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:kernel_untested:conv_patch_embed:kernel-untested'}


def conv_patch_embed(image, K, b, stride):
    """conv2d_forward of MLBites with our (H, W, C) image and (k, k, C, d) kernel."""
    img = _as_hwc(image)
    x = img.transpose(2, 0, 1)[None]          # (N, C_in, H, W)
    weight = K.transpose(3, 2, 1, 0)          # (C_out, C_in, kH, kW)
    bias = b
    padding = 0

    N, C_in, H, W = x.shape
    C_out, _, kH, kW = weight.shape

    # Compute output dimensions
    H_out = (H + 2 * padding - kH) // stride + 1
    W_out = (W + 2 * padding - kW) // stride + 1

    if padding > 0:
        x_pad = np.pad(x, ((0, 0), (0, 0), (padding, padding), (padding, padding)), mode='constant')
    else:
        x_pad = x

    out = np.zeros((N, C_out, H_out, W_out), dtype=x.dtype)
    for h in range(H_out):
        for w in range(W_out):
            h_start = h * stride
            w_start = w * stride
            window = x_pad[:, :, h_start:h_start + kH, w_start:w_start + kW]
            for c_out in range(C_out):
                out[:, c_out, h, w] = np.sum(window * weight[c_out], axis=(1, 2, 3))

    if bias is not None:
        out += bias.reshape(1, -1, 1, 1)
    return out[0].transpose(1, 2, 0)
