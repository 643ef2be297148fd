"""Blind round 51 (b51_12, issue 38): conv_patch_embed ported from hyunyunV/mathmatic-algo
Conv.m (`filter = rot90(squeeze(filter), 2); y(:,:,k) = conv2(x, filter, 'valid')`): the valid
sliding sum written out (a cross-correlation), but the `rot90(filter, 2)` kept, with the stride
and the channel sum added.

Mistakes:
1. `np.rot90(K[:, :, :, kf], 2)`: each kernel is rotated by 180 degrees, so the function computes
   a true convolution rather than the cross-correlation the API asks for (right only for kernels
   symmetric under the rotation, k = 1 among them).
2. Guard too strict: `if wrow >= xrow or wcol >= xcol: raise ValueError`. A kernel exactly as
   large as the image's height or width raises where the API returns: 5x7x2 with k = 5 (ref shape
   (1, 3, 5)), 6x6x3 with k = 6 (ref (1, 1, 5)).

Grader: at blind time (b53db91d), mistake 1 named ("You flipped the kernel (the textbook
convolution). Deep-learning convolutions are cross-correlations: out[i, j] = sum(window * K) + b,
K not flipped, so that with stride P the convolution equals the patch linear map."), mistake 2
not told: its cases (3x5x2, k = 3) fail inside the checks the flip names, and no "2 mistakes at
once" hint is given (named alone once the flip is fixed: "the test that the kernel fits the
image tests `k >= H or k >= W`"). Now named: both, as a pair ("2 mistakes at once: (1) In
`conv_patch_embed`, the test that the kernel fits the image tests `k >= H or k >= W`: a kernel as
tall or as wide as the image is refused, although it fits (one window). ... (2) In
`conv_patch_embed`, the kernel `K` is flipped, `K[::-1, ::-1]`, as a textbook convolution does").
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:kernel_fit:conv_patch_embed:as-large-refused'
                           '+op:kernel_flipped:conv_patch_embed:K-flipped'}


def conv_patch_embed(image, K, b, stride):
    """y = Conv(x, W), filter by filter, valid, with the given stride: (H, W, C), K (k, k, C, d) -> (H', W', d)."""
    x = _as_hwc(image).astype(float)
    wrow, wcol, _, numFilters = K.shape
    xrow, xcol, _ = x.shape
    if wrow >= xrow or wcol >= xcol:
        raise ValueError(f"kernel {wrow}x{wcol} does not fit a {xrow}x{xcol} image")
    yrow = (xrow - wrow) // stride + 1
    ycol = (xcol - wcol) // stride + 1
    y = np.zeros((yrow, ycol, numFilters))
    for kf in range(numFilters):
        filt = np.rot90(K[:, :, :, kf], 2)
        for i in range(yrow):
            for j in range(ycol):
                window = x[i * stride:i * stride + wrow, j * stride:j * stride + wcol, :]
                y[i, j, kf] = np.sum(window * filt)
    return y + b
