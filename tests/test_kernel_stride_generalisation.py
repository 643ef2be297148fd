"""A convolution right only where the kernel's size k equals the stride (windows that tile, the
patch embedding's k = stride = P), wrong or raising wherever they differ: code that cuts the
image into non-overlapping stride x stride blocks (a reshape) instead of sliding a k x k window
(blind round 72's b72_14). Said as an observation of the cases, never as a cause; and a
generalisation the failures do not single out (k == C, where k != C raised the same) is not
said, not even its "raises" half."""
from __future__ import annotations

import numpy as np
from test_kernel_channels_generalisation import Conv  # what generalisation() reads of a check

from grader.checks.cases import PlannedCase
from grader.checks.kinds.generalisations import TITLES, generalisation
from grader.worker.outcomes import CallOutcome, StudentError

NAME = "only_kernel_equals_stride"


def case(image_shape, k, stride, C_out=2):
    C = 1 if len(image_shape) == 2 else image_shape[2]
    args = (np.zeros(image_shape), np.zeros((k, k, C, C_out)), np.zeros(C_out), stride)
    return PlannedCase(args, {}, None, None, "x", None, (None, None), {}, from_compiled=True)


RAISED = CallOutcome("raised", error=StudentError("ValueError", "matmul: mismatch", "", None))
WRONG = CallOutcome("ok", value=np.zeros((2, 2, 2)))
TILED = [case((4, 4, 1), 2, 2), case((6, 8, 3), 2, 2), case((9, 6, 2), 3, 3)]


def test_right_only_where_the_kernel_equals_the_stride_is_said_with_the_raise_seen():
    k3s1, k2s3, k3s2 = case((5, 6, 2), 3, 1), case((7, 8, 3), 2, 3), case((6, 6), 3, 2)
    failures = [(k3s1, RAISED), (k2s3, RAISED), (k3s2, RAISED)]
    name, hint = generalisation(Conv(), TILED, k3s1, [k2s3, k3s2], failures)
    assert name == NAME
    assert hint.startswith("Your `conv_patch_embed` is right when the kernel size k equals the "
                           "stride (windows that tile, as ViT's patches do), and raises "
                           "ValueError for a 3 x 3 kernel with stride 1"), hint
    name, hint = generalisation(Conv(), TILED, k3s1, [k2s3], [(k3s1, WRONG), (k2s3, WRONG)])
    assert name == NAME and ", wrong for a 3 x 3 kernel with stride 1" in hint, hint
    hidden = generalisation(Conv(hidden=True), TILED, k3s1, [], [(k3s1, WRONG)])[1]
    assert "wrong for a kernel size other than the stride" in hidden, hidden
    assert NAME in TITLES


def test_it_is_not_said_where_a_case_belies_it():
    assert generalisation(Conv(), [*TILED, case((5, 6, 3), 3, 1)], case((7, 8, 3), 2, 3)) is None
    assert generalisation(Conv(), TILED, case((5, 6, 2), 3, 1), [case((6, 6, 1), 2, 2)]) is None
    assert generalisation(Conv(), [case((5, 6, 2), 3, 1)], case((6, 6, 1), 2, 2)) is None


def test_a_raise_on_both_sides_of_a_generalisation_is_not_said_as_its_half():
    """k == C fails (3 x 3 kernel, 3 channels), but so does k != C with the same ValueError:
    "raises ValueError for a kernel whose size equals the channel count" would point at k == C,
    which the failures do not single out. Said where the k != C failure returned a value."""
    passed = [case((4, 4, 1), 2, 1), case((6, 8, 3), 2, 1)]  # k != C, all with stride 1
    k_is_c, other = case((5, 6, 3), 3, 1), case((9, 9, 2), 3, 1)  # k == C; k != C
    said = generalisation(Conv(), passed, k_is_c, [other], [(k_is_c, RAISED), (other, RAISED)])
    assert said is None or "k == C" not in said[1], said
    kept = generalisation(Conv(), passed, k_is_c, [other], [(k_is_c, RAISED), (other, WRONG)])
    assert kept is not None and kept[0] == "raises_only_kernel_unlike_channels", kept
