"""A segmentation fault through ctypes: the worker dies of SIGSEGV (no core file). A fresh worker
grades the rest; only flatten-length loses its points."""
import ctypes

from correct_solution import *  # noqa: F401,F403 - every other function is the instructor's solution


def patch_dim(P, C=3):
    return ctypes.string_at(0)
