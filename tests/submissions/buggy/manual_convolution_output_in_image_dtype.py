"""Blind round 68 (b68_10, issue 38): conv_patch_embed ported from Ayaz-75/2_COMPUTER_VISION
`08_manual_convolution/manual_convolution.py` (convolve: a loop over the output positions, the
output buffer made with `np.zeros_like(image)`).

Mistakes:
19. conv_patch_embed (line 100 of the file as delivered): the output buffer takes the image's
    dtype (`np.zeros(..., dtype=image.dtype)`, the source's `np.zeros_like(image)`): for uint8
    (or any integer) images every output is truncated and wrapped into uint8. Wrong for integer
    images only; float images are right.

Grader: at blind time (766069c5) and now, 108/110, named on kernel-stride's failed check ("In
`conv_patch_embed`, the result takes `image`'s dtype (as a buffer made with `np.zeros(...,
dtype=image.dtype)` or `np.zeros_like(image)` does) ... Make the output float."). Every mistake
named, so in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'op:narrowed:conv_patch_embed:result-in-image-dtype'}


def conv_patch_embed(image, K, b, stride):
    """Valid (no padding) cross-correlation: (H, W, C), K (k, k, C, d), b (d,) -> (H', W', d).

    out[i, j] = sum(image[i*stride:i*stride+k, j*stride:j*stride+k, :] * K) + b, with
    H' = (H - k)//stride + 1 and W' likewise. Practice 7: with K = W_e.reshape(P, P, C, d) and
    stride P it equals linear_patch_embed. ValueError when k exceeds H or W.
    """
    image = _as_hwc(image)
    img_h, img_w, _ = image.shape
    k_h, k_w = K.shape[0], K.shape[1]
    if k_h > img_h or k_w > img_w:
        raise ValueError(f"kernel {k_h}x{k_w} is larger than the {img_h}x{img_w} image")

    out_h = (img_h - k_h) // stride + 1
    out_w = (img_w - k_w) // stride + 1
    output = np.zeros((out_h, out_w, K.shape[-1]), dtype=image.dtype)  # np.zeros_like(image), one map per filter

    for i in range(out_h):
        for j in range(out_w):
            region = image[i * stride:i * stride + k_h, j * stride:j * stride + k_w]
            output[i, j] = np.sum(region[..., None] * K, axis=(0, 1, 2)) + b

    return output
