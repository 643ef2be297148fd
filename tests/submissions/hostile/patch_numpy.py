"""Replacing numpy.allclose, numpy.array_equal and numpy.testing's assertions with functions that
always agree, then answering wrong. They only exist in the worker; the grader compares with its
own numpy: kernel-stride loses its conv_patch_embed points (conv_equivalent keeps its own)."""
import numpy
import numpy.testing

from correct_solution import *  # noqa: F401,F403 - every other function is the instructor's solution


def _agree(*args, **kwargs):
    return True


def conv_patch_embed(image, K, b, stride):
    numpy.allclose = numpy.array_equal = numpy.array_equiv = numpy.isclose = _agree
    numpy.testing.assert_allclose = numpy.testing.assert_array_equal = numpy.testing.assert_equal = _agree
    return numpy.zeros((1, 1, 1))
