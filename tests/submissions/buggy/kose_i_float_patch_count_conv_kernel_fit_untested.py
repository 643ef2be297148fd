"""Blind round 77 (b77_07, issue 38): num_patches and conv_patch_embed ported from
Kose-i/machine_learning_tutorial `Book/DeepLearning_math/6step.py` (convolution forward loops).

Mistakes:
1. num_patches (line 14 of the file as delivered): `H / P * (W / P)` returns a float (196.0).
2. conv_patch_embed (lines 62-71): no ValueError when k exceeds H or W (the source has no test):
   with k > W only it returns an empty (H', 0, d) array; with k larger than both sides numpy's
   final reshape happens to raise ValueError.

Grader: at blind time (15b4065f) and now, 104/110. Mistake 1 named on patch-count ("the count is
a float (at your line `return H / P * (W / P)`)"); mistake 2 partly, at blind time with a wrong
cause: "the test that the kernel fits the image tests the height only (`k > H`) ... test `k > W`
too", of code that tests nothing. Since 6acf7dd9 (a one-side test said only where the student's
own raise refuses: error_model/kernel_fit.py) the checklist: "A 3x3 kernel does not fit in a
2-pixel-wide image: raise ValueError."; since 33910974 (checks/kinds/refusal_values.py) the
observation: "returned an empty array of shape (3, 0, 2) (no window fits) for a 3x3 kernel on a
2-pixel-wide image, where it must raise ValueError: test that the kernel fits both sides ...
(its ValueError for a 3x3 kernel on a 2-pixel-high image came from your line `return
np.array(result).reshape(...)`, not a `raise` of yours ...)". Since 917c36bb (checks/kinds/
refusals.py: where the reference without its kernel test, kernel_fit.py's kernel-untested,
returns an empty array, a raise from a line of the student's that raises nothing by itself,
numpy refusing the empty result, counts as the same, guards.refused_by_computation; a probe
of a kernel larger than both sides keeps a test with `and` for `or` from being told it has
none) mistake 2 is named: "In `conv_patch_embed`, nothing tests that the kernel fits the
image: ... an array comes back (an empty one, ...), or numpy's error for a negative size or for
the empty result, where the lecture raises ValueError: refuse `k > H or k > W` first."
"""
# ruff: noqa: F821  (every other name is the solution's)
EXPECT = {'patch-count': 'pixels_over_patch_area',
          'kernel-stride': 'op:kernel_untested:conv_patch_embed:kernel-untested'}


def num_patches(H, W, P):
    if H % P != 0 or W % P != 0:
        raise ValueError("patches must tile the image")
    # N = HW / P^2
    return H / P * (W / P)


def conv_patch_embed(image, K, b, stride):
    # Input
    x = np.asarray(image, dtype=float)
    if x.ndim == 2:
        x = x.reshape(x.shape[0], x.shape[1], 1)
    # Filter
    f = K
    result = []
    for i in range(0, len(x) - len(f) + 1, stride):
        row = []
        for j in range(0, len(x[0]) - len(f[0]) + 1, stride):
            # multiple cell and sum
            cell = x[i:i + len(f), j:j + len(f[0]), :, None] * f
            row.append(np.sum(cell, axis=(0, 1, 2)) + b)
        result.append(row)
    return np.array(result).reshape(len(result), -1, K.shape[3])
