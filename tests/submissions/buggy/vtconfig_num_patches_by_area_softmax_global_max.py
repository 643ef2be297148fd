"""Blind round 54 (b54_02, issue 38): num_patches from a VTConfig comment, `num_patches: int #
(image_height * image_width) // patch_size[0] * patch_size[1]` (find_string id 14098555602), with
the precedence written out; softmax from Priyanshu-pg/Program-Synthesis-using-PG `venv/utils.py`
(`e_x = np.exp(x - np.max(x))`).

Mistakes:
1. num_patches counts by area, `(H*W) // (P*P)`, and its guard only checks `(H*W) % (P*P)`. When
   the area divides but the sides do not, it returns a count instead of raising: (6, 24, 4) -> 9,
   (8, 2, 4) -> 1 (the API raises ValueError). num_tokens follows it (10 and 2). Tiling sizes
   are right.
2. softmax shifts by the global max `np.max(x)`, not the max along `axis`. For input where one
   slice is far above another (batched/2-D, values far apart), the lower slices underflow to
   0/0 = nan: [[0, 1, 2], [1000, 1001, 999]] -> row 0 all nan. 1-D input and rows close together
   are right.

Grader: at blind time (5f4a3d53) both named. Mistake 1 on the hidden "random sizes that do not
tile": "2 mistakes at once: (1) In `num_patches`, the tiling test (the lecture's
`check_tiling(H, W, P)`) tests the area (`(H * W) % (P * P)`): an 8 x 2 image with P = 4 (area 16)
gets a count. ... (2) In `num_patches`, the patches are counted by area, `H * W // (P * P)` ...
(a 6x6 image with P = 4 counts 2 by area, 1 by rows and columns)", whose example is a size this
function refuses (36 % 16 != 0). Mistake 2 on "no overflow near 1000": "In `softmax`, your values
are the lecture's with `np.max(x, keepdims=True)` in place of `np.max(x, axis=axis,
keepdims=True)`: over the whole array instead of the axis `axis` it is given", where the student
wrote `np.max(x)`.
Now named under the same names, each example and quote the student's: the count by area's
example is a probe size this function counted, "(an 8 x 2 image with P = 4 counts 1 by area, 0
by rows and columns)" (tiling.with_area_example), and the softmax quote is spelled as written,
"your values are the lecture's with `np.max(x)` in place of `np.max(x, axis=axis,
keepdims=True)`" (report/spelled.py).
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'op:tiling:num_patches:area+op:count_by_area:num_patches:count-by-area',
          'stable-softmax': 'op:axis:softmax:max.axis=None'}


def num_patches(H, W, P):
    """Number of P x P patches of an H x W image: (image_height * image_width) // (patch_size * patch_size)."""
    if P <= 0 or (H * W) % (P * P) != 0:
        raise ValueError(f"patch size {P} does not tile a {H}x{W} image")
    return (H * W) // (P * P)


def softmax(x, axis=-1):
    """Compute softmax values for each set of scores in x."""
    e_x = np.exp(x - np.max(x))
    return e_x / e_x.sum(axis=axis, keepdims=True)
