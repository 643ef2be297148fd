"""Blind round 75 (b75_14, issue 38): num_patches and conv_patch_embed ported from
the-full-stack/fsdl-text-recognizer-project `lab8/text_recognizer/networks/misc.py`
(`slide_window`: image patches by window width and stride, then `tf.transpose(patches,
(0, 2, 1, 3))`).

Mistakes:
1. num_patches (line 17 of the file as delivered): `grid = H // P; return grid * grid`, right for
   square images only (8x12, P = 4 gives 4, not 6).
2. conv_patch_embed via slide_window (line 69): the window grid transposed to (W', H'), so the
   output is (W', H', d): the wrong shape where H' != W', transposed values on square outputs.
The delivered file's top-level helpers `_hwc` and `slide_window` are nested in conv_patch_embed
here.

Grader: at blind time (db1f63a6) and now, 101/110. Mistake 1 named on patch-count ("In
`num_patches`, the model solution's `W // P` reads `H` where `W` belongs ... (right only when
H == W)"). Mistake 2 judged partly named: the visible square case gets only kernel-stride's
checklist, the hidden case the observation "Your `conv_patch_embed` returns the expected values
with their axes in another order, as `value.transpose(1, 0, 2)` gives them"; not told yet: the
transpose in `slide_window` (line 69). Since 70c39e23 (error_model/grid_sides.grid_transposed)
named on both convolution checks: "In `conv_patch_embed`, the grid of windows has its rows and
columns swapped, laid out (W', H') where (H', W') belongs ...". Every mistake named: in
buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:sibling:num_patches:W-as-H',
          'kernel-stride': 'op:grid_transposed:conv_patch_embed:windows-grid-transposed'}


def num_patches(H, W, P):
    if H % P or W % P:
        raise ValueError(f"patch size {P} does not divide {H}x{W}")
    grid = H // P
    return grid * grid


def conv_patch_embed(image, K, b, stride):
    def _hwc(image):
        image = np.asarray(image, dtype=float)
        if image.ndim == 2:
            image = image[:, :, np.newaxis]
        if image.ndim != 3:
            raise ValueError("image must have shape (H, W) or (H, W, C)")
        return image

    def slide_window(image, window_width, window_stride):
        """
        Takes (image_height, image_width, channels) input,
        Returns (num_windows_w, num_windows_h, window_width, window_width, channels) output, where
        num_windows is floor((image_width - window_width) / window_stride) + 1
        """
        H, W, C = image.shape
        n_h = (H - window_width) // window_stride + 1
        n_w = (W - window_width) // window_stride + 1
        patches = np.empty((n_h, n_w, window_width, window_width, C))
        for i in range(n_h):
            for j in range(n_w):
                r, c = i * window_stride, j * window_stride
                patches[i, j] = image[r:r + window_width, c:c + window_width]
        patches = np.transpose(patches, (1, 0, 2, 3, 4))
        return patches
    image = _hwc(image)
    H, W, C = image.shape
    k = K.shape[0]
    if k > H or k > W:
        raise ValueError("kernel larger than image")
    patches = slide_window(image, k, stride)
    return np.tensordot(patches, K, axes=([2, 3, 4], [0, 1, 2])) + b
