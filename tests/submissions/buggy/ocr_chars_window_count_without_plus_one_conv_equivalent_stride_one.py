"""Blind round 75 (b75_08, issue 38): conv_patch_embed and conv_equivalent ported from harahu/ocr-chars
`sliding_window.py` (extract_patches_2d windows reshaped with `(img.shape[0] - 20) *
(img.shape[1] - 20)` rows: the window count without the + 1).

Mistakes:
1. conv_patch_embed via sliding_window_patches (lines 55-56 of the file as delivered):
   `n_h = (H - k)//stride`, `n_w = (W - k)//stride` (no + 1): the last output row and column
   dropped (8x8, k = s = 4 gives 1x1, not 2x2; k = H an empty array). Wrong on every input.
2. conv_equivalent (line 76): returns `(P, 1)` (a stride-1 sliding window) instead of `(P, P)`.
The delivered file's top-level helpers `_image` and `sliding_window_patches` are nested in
conv_patch_embed here.

Grader: at blind time (db1f63a6) and now, 102/110. Mistake 2 named on kernel-stride
("Stride 1 slides the kernel one pixel at a time ... stride P."). Mistake 1 not told: the output
shows the shapes, expected (2, 2, 3), got (1, 1, 3), with kernel-stride's checklist ("... with
H' = (H - k) // stride + 1 ..."); nothing says the + 1 is missing in `sliding_window_patches`.
Since 70c39e23 (error_model/grid_count.py) named on kernel-stride's two convolution checks: "In
`conv_patch_embed`, the output grid is counted `(H - k) // stride` by `(W - k) // stride`,
without the `+ 1`: ..." (said of `conv_patch_embed`, whose helper holds it). Every mistake named:
in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'kernel-stride': 'conv_equivalent_stride_one'}
# the window count's mistake, on the same exercise's convolution checks
ALIASES = ('op:grid_count_without_plus_one:conv_patch_embed:windows-grid-count-without-plus-one',)


def conv_patch_embed(image, K, b, stride):
    def _image(image):
        img = np.asarray(image, dtype=float)
        if img.ndim == 2:
            img = img[:, :, None]
        if img.ndim != 3:
            raise ValueError("need a (H, W) or (H, W, C) image")
        return img

    def sliding_window_patches(img, k, stride):
        """Create an array of contents of a k x k window sliding over img with
        the given stride in both directions."""
        H, W, C = img.shape
        n_h = (H - k) // stride
        n_w = (W - k) // stride
        patches = np.zeros((n_h, n_w, k * k * C))
        for a in range(n_h):
            for c in range(n_w):
                patches[a, c] = img[a * stride:a * stride + k, c * stride:c * stride + k, :].reshape(-1)
        return patches
    img = _image(image)
    H, W, C = img.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError("kernel does not fit")
    patches = sliding_window_patches(img, k, stride)          # (H', W', k*k*C)
    return patches @ K.reshape(k * k * C, -1) + b


def conv_equivalent(P):
    # kernel P, sliding one pixel at a time
    return (P, 1)
