"""Blind round 54 (b54_05, issue 38): conv_patch_embed ported from taesiri/MLBites,
db/conv2d_numpy/solution.py (`conv2d_forward`, NCHW loops, find_string id 27252332769), with the
image put to (1, C, H, W) and K to (d, C, k, k).

Mistakes:
1. No check that k fits: H_out = (H - k)//stride + 1 is 0 when k = H + 1 (or k = H + 2 with
   stride 2), so it returns an empty array (5x8 C=2 k=6 stride 1 -> shape (0, 3, 4); stride 2 ->
   (0, 2, 4)) where the API raises ValueError. (When H_out goes negative numpy itself raises
   ValueError "negative dimensions", which happens to match.)
2. `out = np.zeros(..., dtype=x.dtype)`: for a uint8 image the accumulator is uint8, the window
   sums are truncated/wrapped into 0..255 and `out += bias` raises numpy UFuncTypeError (with
   b=None the values come back as wrapped uint8). Float images are right (gray included).

Grader: at blind time (5f4a3d53), both named on kernel-stride: #2 on "conv_patch_embed for several
kernels and strides" ("In `conv_patch_embed`, the lecture's `np.tensordot(...)` is written into a
buffer in `image`'s dtype and `b` is added to it in place ... Make the buffer float."), #1 on "a
kernel larger than the image raises ValueError" as "2 mistakes at once: (1) In `conv_patch_embed`,
nothing tests that the kernel fits the image ... refuse `k > H or k > W` first. (2) ... a buffer in
`image`'s dtype ..." (the failing case is a float image: the dtype plays no part there).
Now named: #2 as before; #1 alone on the kernel check ("In `conv_patch_embed`, nothing tests that
the kernel fits the image: ... refuse `k > H or k > W` first.").
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:bias_in_place:conv_patch_embed:b-added-in-place-in-image-dtype'}


def conv_patch_embed(image, K, b, stride):
    """Valid cross-correlation of one (H, W, C) image, K (k, k, C, d), bias b (d,) -> (H', W', d).

    conv2d_forward with a batch of one: x (N, C_in, H, W), weight (C_out, C_in, kH, kW), no padding.
    """
    x = np.asarray(image)
    if x.ndim == 2:
        x = x[:, :, None]
    x = x.transpose(2, 0, 1)[None]                 # (1, C_in, H, W)
    weight = np.transpose(K, (3, 2, 0, 1))         # (C_out, C_in, kH, kW)
    bias = b
    padding = 0

    N, C_in, H, W = x.shape
    C_out, _, kH, kW = weight.shape

    # Compute output dimensions
    H_out = (H + 2 * padding - kH) // stride + 1
    W_out = (W + 2 * padding - kW) // stride + 1

    x_pad = x

    # Initialize output
    out = np.zeros((N, C_out, H_out, W_out), dtype=x.dtype)

    # Perform convolution
    for h in range(H_out):
        for w in range(W_out):
            h_start = h * stride
            w_start = w * stride
            window = x_pad[:, :, h_start:h_start + kH, w_start:w_start + kW]
            for c_out in range(C_out):
                out[:, c_out, h, w] = np.sum(window * weight[c_out], axis=(1, 2, 3))

    # Add bias if provided
    if bias is not None:
        out += bias.reshape(1, -1, 1, 1)

    return out[0].transpose(1, 2, 0)               # (H', W', d)
