"""Blind round 3 (b3_05, issue 38), a port with two mistakes that show only on non-square images:
num_patches returns (H // P) ** 2 (torchvision's seq_length = (image_size // patch_size) ** 2);
conv_patch_embed (cs231n-style loops) allocates and loops an out_size x out_size output with
out_size computed from H, so W' is wrong (too few columns when W > H, an exception when W < H).
Both are named (the convolution's columns counted from H).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:sibling:num_patches:W-as-H',
          'kernel-stride': 'op:window_count:conv_patch_embed:windows-W-count-from-H'}


def num_patches(H, W, P):
    """torchvision: seq_length = (image_size // patch_size) ** 2."""
    if P <= 0 or H % P != 0 or W % P != 0:
        raise ValueError(f"Input shape indivisible by patch size: {H}x{W}, P={P}")
    image_size = H
    return (image_size // P) ** 2


def conv_patch_embed(image, K, b, stride):
    """Naive convolution, channels last, no padding."""
    image = np.asarray(image, dtype=float)
    if image.ndim == 2:
        image = image[:, :, None]
    H, W, C = image.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError("kernel larger than the image")
    out_size = (H - k) // stride + 1
    out = np.zeros((out_size, out_size, K.shape[-1]))
    for i in range(out_size):
        for j in range(out_size):
            patch = image[i * stride:i * stride + k, j * stride:j * stride + k, :]
            out[i, j] = np.tensordot(patch, K, axes=3) + b
    return out
