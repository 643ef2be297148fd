"""Blind round 12 (b12_05, issue 38): Source style ported: a MATLAB im2col / `blockproc` course script
(patches taken block by block and flattened with `patch(:)'`, P^2*C for the patch length),
translated line by line to numpy.

Mistake 1 (patchify): each P x P x C block is flattened with `block.flatten(order="F")`, MATLAB's
column-major `(:)`, i.e. the order (c, p2, p1) with p1 fastest, instead of numpy's row-major
(p1, p2, c). The raster order of the patches is right. Right: block.reshape(-1) (C order).
Shows on every image with P > 1 (for a gray image it is the patch transposed; the worked
example's [[1, 2], [3, 4]] gives [1, 3, 2, 4]). linear_patch_embed / embed_image / vit_forward
follow.
Mistake 2 (patch_dim): `P ^ 2 * C`, MATLAB's power operator, which in Python is XOR and binds
after *, i.e. P XOR (2*C). Right: P ** 2 * C. Wrong for nearly every input (16 ^ 6 = 22, not 768).

Grader: on gray inputs patchify_patch_transposed ((p2, p1, c); true there, a neighbouring mistake: the
real order is (c, p2, p1)); on RGB a WRONG cause (offset_rows: "a term added to (or left out
of) every row alike"; the values are reordered); random images observed. The XOR patch length
gets expected/got only, no hint. Since choices.axes_swapped: the flatten order is named,
`grid.transpose(0, 2, 4, 3, 1)` (axes 4 and 1 swapped: (c, p2, p1)); the gray inputs' listed
neighbour is no longer named (it explains none of the RGB failures: unexplained_elsewhere), and
the same vector in every row is said as an observation without a guessed cause.
Since session 16 the XOR patch length is named too (counts.caret: `P * P * C` written
`P ^ 2 * C`, which is `P ^ (2 * C)`), so every mistake is named: moved to buggy/ (vit-checkpoint's
observation of the broken functions is not the file's mistake).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'flatten-length': 'op:caret:patch_dim:P-squared-as-xor-times-rest',
          'patchify': 'op:axes_swapped:patchify:transpose-0-2-4-3-1'}


def patch_dim(P, C=3):
    return P ^ 2 * C


def patchify(image, P):
    image = _as_hwc(image)
    H, W, C = image.shape
    num_patches(H, W, P)
    rows = []
    for r in range(0, H, P):
        for c in range(0, W, P):
            block = image[r:r + P, c:c + P, :]
            rows.append(block.flatten(order="F"))      # patch(:)'
    return np.stack(rows, axis=0)
