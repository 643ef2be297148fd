"""Blind round 82 (b82_04, issue 38): patchify ported from k8tems/IntroToCNN `main.py` (im2col).
The delivered file's top-level helper `_to_hwc` is nested in patchify here.

Mistakes:
1. patchify (lines 39-41 of the file as delivered): the source's im2col loops, `for col` outer
   and `for row` inner, so the patches come in column-major order (down, then across) instead
   of raster order; the order inside a patch is right. Wrong whenever the patch grid has more
   than one row and more than one column (linear_patch_embed, embed_image and vit_forward
   inherit it).

Grader: at blind time (ee59f1b1) and now, 97/110. Mistake 1 named on patchify ("Your patches are
numbered down the columns first ... raster order"). kernel-stride keeps full marks: its
conv/linear check runs the grader's patchify in place of the student's. Every mistake named, so
in buggy/.
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patchify': 'patchify_grid_transposed'}


def patchify(image, P):
    def _to_hwc(image):
        image = np.asarray(image, dtype=float)
        if image.ndim == 2:
            image = image[..., None]
        if image.ndim != 3:
            raise ValueError("image must be (H, W) or (H, W, C)")
        return image

    A = _to_hwc(image)
    H, W, C = A.shape
    num_patches(H, W, P)
    rows = []
    for col in range(0, A.shape[1] - P + 1, P):
        for row in range(0, A.shape[0] - P + 1, P):
            rows.append(A[row:row + P, col:col + P].reshape((P * P * C,)))
    return np.array(rows)
