"""Lab 4 submission following d2l.ai's ViT chapter (img_size, patch_size as one number each).

Mistakes (2), both only on non-square images:
- num_patches returns (H // P) ** 2, d2l's num_patches for a square img_size.
- conv_patch_embed (nested loops) sizes the output from H for both axes: (H' , H').
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:sibling:num_patches:W-as-H',
          'kernel-stride': 'op:window_count:conv_patch_embed:windows-W-count-from-H'}


def num_patches(H, W, P):
    """(img_size // patch_size) ** 2 as in d2l's PatchEmbedding."""
    if P <= 0 or H % P or W % P:
        raise ValueError(f"patch size {P} does not tile a {H}x{W} image")
    return (H // P) ** 2


def conv_patch_embed(image, K, b, stride):
    """Valid cross-correlation with loops, (H, W, C) -> (H', W', d)."""
    image = _as_hwc(image)
    H, W, C = image.shape
    k, _, _, d = K.shape
    if k > H or k > W:
        raise ValueError(f"kernel {k} is larger than the {H}x{W} image")
    out_size = (H - k) // stride + 1
    out = np.zeros((out_size, out_size, d))
    for i in range(out_size):
        for j in range(out_size):
            window = image[i * stride:i * stride + k, j * stride:j * stride + k, :]
            for o in range(d):
                out[i, j, o] = np.sum(window * K[:, :, :, o]) + b[o]
    return out
