"""Blind round 43 (b43_04, issue 38): conv_patch_embed ported from an NHWC port of CS231n's fast
convolution helpers (code-search file id 17174515084: `conv_forward(x, w, b, pad, stride)` with
`filter_height, filter_width, _, num_filters = w.shape`, the "width does not work" checks,
`w.transpose(3, 2, 0, 1).reshape((num_filters, -1)).dot(x_cols)`); im2col_cython replaced by a
numpy im2col.

Mistakes:
1. The source's `assert (W + 2 * pad - filter_width) % stride == 0, 'width does not work'` (and
   its height twin) are kept: a stride that does not tile the image raises AssertionError
   instead of flooring, (H - k) // stride + 1 windows.
2. The kernel is flattened with the source's `w.transpose(3, 2, 0, 1)`, (c, i, j) order, while
   the numpy im2col flattens each window in (i, j, c) order: wrong whenever C > 1 (the
   Practice-7 equivalence fails for RGB).

Grader: at blind time (b20830f) observed, not named: the hidden kernel-stride check said "your
code raised AssertionError" with a checklist, the visible ones checklists only. Now named as a
pair (`named_refusal`: a guard and the one value mistake that reproduces every value returned):
guards.py's "windows-must-fit" (the assert, any exception where the stride leaves rows or columns
over) and contractions.py's `flattened_apart` "flattened-crosswise" (each operand flattened in
the other's order: the windows (p1, p2, c), the kernel (c, p1, p2), torch's weight order), on
the visible and the hidden check.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:guarded:conv_patch_embed:windows-must-fit'
                          '+op:flattened_apart:conv_patch_embed:windows-K-flattened-crosswise'}


def conv_patch_embed(image, K, b, stride):
    """conv_forward for one channels-last image, pad = 0."""
    x = _as_hwc(image)
    H, W, C = x.shape
    filter_height, filter_width, _, num_filters = K.shape
    pad = 0
    if filter_height > H or filter_width > W:
        raise ValueError(f"kernel {filter_height} is larger than the {H}x{W} image")

    # Check dimensions
    assert (W + 2 * pad - filter_width) % stride == 0, 'width does not work'
    assert (H + 2 * pad - filter_height) % stride == 0, 'height does not work'

    # Create output
    out_height = (H + 2 * pad - filter_height) // stride + 1
    out_width = (W + 2 * pad - filter_width) // stride + 1

    def im2col(x, fh, fw, stride):
        cols = []
        for i in range(out_height):
            for j in range(out_width):
                window = x[i * stride:i * stride + fh, j * stride:j * stride + fw, :]
                cols.append(window.reshape(-1))
        return np.array(cols).T                      # (fh*fw*C, out_height*out_width)

    x_cols = im2col(x, filter_height, filter_width, stride)
    res = K.transpose(3, 2, 0, 1).reshape((num_filters, -1)).dot(x_cols) + b.reshape(-1, 1)
    out = res.reshape(num_filters, out_height, out_width)
    return out.transpose(1, 2, 0)

