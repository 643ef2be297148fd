"""A kernel test that asks the windows to fit exactly, quoted as what it computes, not as the
student's code (blind round 79's b79_01, issue 38): JoshZastrow/Conv_Nets' `(H - HH) % S != 0 or
(W - WW) % S != 0` was told "tests that the windows fit exactly, `(H - k) % stride or (W - k) %
stride`", a paraphrase a student looks for in vain. The quote is now given as an effect
(quotes.EFFECT): "in effect `...`" where their function holds no such code, their own quote
(no words) where it does."""
from __future__ import annotations

import pytest
from one_function import graded_one

FIT = "op:kernel_fit:conv_patch_embed:windows-fit-exactly"
QUOTE = "`(H - k) % stride or (W - k) % stride`"
CONV = '''
def conv_patch_embed(image, K, b, stride):
    x = image[:, :, None] if image.ndim == 2 else image
    H, W, _ = x.shape
{test}
    if K.shape[0] > min(H, W):
        raise ValueError("the kernel does not fit")
    views = np.lib.stride_tricks.sliding_window_view(x, K.shape[:2], axis=(0, 1))
    return np.einsum("ijcab,abcd->ijd", views[::stride, ::stride], K) + b
'''
TESTS = {  # the student's test -> the words the hint says it with
    "own-names": ("    HH, WW = K.shape[:2]\n"
                  "    if (H - HH) % stride != 0 or (W - WW) % stride != 0:\n"
                  "        raise ValueError('the windows do not fit')",
                  f"tests that the windows fit exactly, in effect {QUOTE}: "),
    "as-quoted": ("    k = K.shape[0]\n"
                  "    if (H - k) % stride or (W - k) % stride:\n"
                  "        raise ValueError('the windows do not fit')",
                  f"tests that the windows fit exactly, {QUOTE}: "),
}


@pytest.mark.parametrize("spelling", list(TESTS))
def test_the_windows_test_is_quoted_as_an_effect_unless_the_student_wrote_it(
        catalogue, tmp_path, spelling):
    test, said = TESTS[spelling]
    result = graded_one(catalogue, tmp_path, CONV.replace("{test}", test), "kernel-stride")
    named = [c for c in result.checks if not c.passed and c.misconception == FIT]
    assert named, [(c.name, c.misconception, c.hint) for c in result.checks]
    for check in named:
        assert said in check.hint, check.hint
