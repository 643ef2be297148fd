"""A convolution right whenever the kernel's size k differs from the image's channel count C,
wrong where they are equal (a port's test of K's shape that guesses its layout from its sizes,
mlx-vlm's `check_array_shape`, which takes a (k, k, C, d) kernel for (d, k, k, C) exactly when
k == C: blind round 71's b71_11). Said as an observation of the cases, never as a cause."""
from __future__ import annotations

import numpy as np

from grader.checks.api import SHIPPED
from grader.checks.cases import PlannedCase
from grader.checks.kinds.generalisations import TITLES, generalisation

NAME = "only_kernel_unlike_channels"


class Conv:  # what generalisation() reads of a spec's check
    function = reference_name = "conv_patch_embed"
    api, folder = SHIPPED, None

    def __init__(self, hidden=False):
        self.hidden = hidden


def case(image_shape, k, C_out=2, stride=1):
    C = 1 if len(image_shape) == 2 else image_shape[2]
    args = (np.zeros(image_shape), np.zeros((k, k, C, C_out)), np.zeros(C_out), stride)
    return PlannedCase(args, {}, None, None, "x", None, (None, None), {}, from_compiled=True)


PASSED = [case((5, 6, 3), 2), case((6, 6), 3), case((8, 7, 3), 4, stride=2), case((5, 4, 2), 1)]


def test_right_unless_the_kernel_size_equals_the_channels_is_said():
    name, hint = generalisation(Conv(), PASSED, case((5, 6, 3), 3))
    assert name == NAME
    assert hint.startswith("Your `conv_patch_embed` is right when the kernel size k differs from "
                           "the channel count C, wrong for a 3 x 3 kernel on an image with 3 "
                           "channels (k == C)")
    hidden = generalisation(Conv(hidden=True), PASSED, case((5, 6, 3), 3))[1]
    assert "wrong for a kernel whose size equals the channel count" in hidden
    assert NAME in TITLES


def test_it_is_not_said_where_a_case_belies_it():
    assert generalisation(Conv(), [*PASSED, case((5, 6, 3), 3)], case((6, 6), 1)) is None
    assert generalisation(Conv(), PASSED, case((5, 6, 3), 3), [case((5, 6, 3), 2)]) is None
    assert generalisation(Conv(), PASSED, case((5, 6, 3), 2)) is None  # k != C failed
