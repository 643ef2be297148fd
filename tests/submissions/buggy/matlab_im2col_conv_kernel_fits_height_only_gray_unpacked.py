"""Blind round 51 (b51_03, issue 38): conv_patch_embed ported from nouman-tariq/vision
assgn6/matlab/im2col_conv_matlab.m (im2col loops, `col(:, h + (w-1)*h_out) = matrix_hw(:)`),
kept column-major throughout (`ravel(order='F')`, `K.reshape(k*k*c, d, order='F')`), so its
values are right.

Mistakes:
1. The guard checks only the height: `if k > h_in: raise ValueError`. When k > W (and k <= H)
   with W < k <= W + stride, w_out = 0 and the function returns an empty (H', 0, d) array
   instead of raising ValueError: 9x4x3 with k = 5, stride 1 returns shape (5, 0, 5).
2. `h_in, w_in, c = np.shape(image)`, from the MATLAB `input_n.height/width/channel`: a gray
   (H, W) image raises ValueError (not enough values to unpack) where the API returns (H', W', d).

Grader: at blind time (b53db91d), mistake 2 named ("In `conv_patch_embed`, a 2-D (H, W) `image`
is read as it is, with no channel axis (its last axis, the width, taken for the channels, or its
shape unpacked into H, W, C): a 2-D image is one channel, (H, W, 1), `image[..., None]`."),
mistake 1 only the checklist of "a kernel larger than the image raises ValueError" (5x2x1, k = 3
gave array (3, 0, 2)): "A 3x3 kernel does not fit in a 2-pixel-wide image: raise ValueError."
Now named: both, on that check, as a pair ("2 mistakes at once: (1) In `conv_patch_embed`, the
test that the kernel fits the image tests the height only (`k > H`): ... test `k > W` too. (2)
In `conv_patch_embed`, a 2-D (H, W) `image` is read as it is, with no channel axis ..."), and
mistake 2 alone on the others. Since round 54 that check, whose images all have a channel axis
(no gray image to show mistake 2), is told mistake 1 alone.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:kernel_one_side:conv_patch_embed:height-only'}


def conv_patch_embed(image, K, b, stride):
    """Valid cross-correlation by im2col (port of im2col_conv_matlab.m), K (k, k, C, d) -> (H', W', d).

    col(:, h + (w-1)*h_out) = matrix_hw(:) as in the MATLAB code (column-major), then one matmul.
    """
    h_in, w_in, c = np.shape(image)
    k = K.shape[0]
    d = K.shape[3]
    if k > h_in:
        raise ValueError(f"kernel {k} is larger than the image height {h_in}")
    h_out = (h_in - k) // stride + 1
    w_out = (w_in - k) // stride + 1
    im = np.reshape(np.asarray(image, dtype=float), (h_in, w_in, c))
    col = np.zeros((k * k * c, h_out * w_out))
    for h in range(1, h_out + 1):
        for w in range(1, w_out + 1):
            matrix_hw = im[(h - 1) * stride:(h - 1) * stride + k, (w - 1) * stride:(w - 1) * stride + k, :]
            col[:, (h - 1) + (w - 1) * h_out] = matrix_hw.ravel(order='F')
    weights = K.reshape(k * k * c, d, order='F')          # same (:) order as matrix_hw
    out = weights.T @ col                                  # (d, h_out * w_out)
    out = out.T.reshape(w_out, h_out, d).transpose(1, 0, 2)
    return out + b
