"""Blind round 34 (b34_10, issue 38): conv_patch_embed ported from the C++ im2col of
akkaze/Excercise (covolution/im2col.hpp: new_rows / new_cols, row r = hi * filter_w * channels +
wi * channels + ci, zero outside the image).

Mistakes:
1. The source's `new_cols = (rows + 2*padding - filter_h)/stride + 1`: the output's columns are
   counted from the height, W' = H'. A wide image loses its last columns, a tall one gets extra
   columns of zero-filled windows (only the bias). Right for square images.

Grader: at blind time (5712eea) and now, named on the visible kernel-stride check: "In
`conv_patch_embed`, the columns of the output are counted from H, `(H - k) // stride + 1`, where
`(W - k) // stride + 1` belongs"; the hidden check has the observation "right when H == W, wrong
for a non-square image" (only_square_images), the equivalence check its checklist. Every mistake
named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:window_count:conv_patch_embed:windows-W-count-from-H'}


def conv_patch_embed(image, K, b, stride):
    image = _as_hwc(image)
    rows, cols, channels = image.shape
    filter_h, filter_w = K.shape[0], K.shape[1]
    padding = 0
    if filter_h > rows or filter_w > cols:
        raise ValueError(f"kernel {filter_h} is larger than the {rows}x{cols} image")

    new_rows = (rows + 2 * padding - filter_h) // stride + 1
    new_cols = (rows + 2 * padding - filter_h) // stride + 1

    col = np.zeros((filter_h * filter_w * channels, new_rows * new_cols))
    for hi in range(filter_h):
        for wi in range(filter_w):
            for ci in range(channels):
                r = hi * filter_w * channels + wi * channels + ci
                # every (hj, wj) output position at once; positions outside the image stay 0
                block = np.zeros((new_rows, new_cols))
                src = image[hi:hi + stride * new_rows:stride, wi:wi + stride * new_cols:stride, ci]
                block[:src.shape[0], :src.shape[1]] = src
                col[r] = block.ravel()

    d = K.shape[-1]
    out = K.reshape(-1, d).T @ col + b[:, None]          # (d, new_rows * new_cols)
    return out.T.reshape(new_rows, new_cols, d)
