"""Blind round 13 (b13_06, issue 38): timm PatchEmbed's `grid_size` returned as the count, and a
d2l corr2d loop conv that applies the stride by subsampling the image.

Mistakes:
1. num_patches: returns the grid `(H // P, W // P)`, not the count (num_tokens, rewritten to
   multiply the grid itself, is right: CORRECT).
2. conv_patch_embed: `X = image[::stride, ::stride]`, then every k x k window of X with step 1
   (right: full-resolution windows starting at i*stride). Shows for stride > 1.

Grader: num_patches gets no hint at all (expected/got only, "tuple of 2: (2, 2)"); the conv only
kernel-stride's equivalence checklist, no hint on the kernels-and-strides and hidden checks. Both named since (the error model: the
factors returned, the stride applied to the image).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:factors:num_patches:factors-returned',
          'kernel-stride': 'op:stride_subsampled:conv_patch_embed:windows-image-subsampled'}
CORRECT = ('num_tokens',)

def num_patches(H, W, P):
    """timm PatchEmbed: grid_size = (H // P, W // P)."""
    if P <= 0 or H % P or W % P:
        raise ValueError(f"patch size {P} does not tile a {H}x{W} image")
    grid_size = (H // P, W // P)
    return grid_size


def num_tokens(H, W, P, cls_token=True):
    """Patches in the grid, plus one for [CLS]."""
    gh, gw = num_patches(H, W, P)
    return gh * gw + (1 if cls_token else 0)


def conv_patch_embed(image, K, b, stride):
    """d2l corr2d, extended to channels and output channels; the stride subsamples the input."""
    image = _as_hwc(image)
    k = K.shape[0]
    H, W, C = image.shape
    if k > H or k > W:
        raise ValueError(f"kernel {k} is larger than the {H}x{W} image")
    X = image[::stride, ::stride]
    h, w = X.shape[0] - k + 1, X.shape[1] - k + 1
    Y = np.zeros((max(h, 0), max(w, 0), K.shape[3]))
    for i in range(Y.shape[0]):
        for j in range(Y.shape[1]):
            Y[i, j] = np.tensordot(X[i:i + k, j:j + k, :], K, axes=3)
    return Y + b
