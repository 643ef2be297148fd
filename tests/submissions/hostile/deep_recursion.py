"""Recursion a million deep, through C (functools.partial calls back into Python, so every level
takes C stack) and with the recursion limit lifted so that Python does not stop it: the C stack
overflows and the worker dies of SIGSEGV. A fresh worker grades the rest; only flatten-length
loses its points."""
import functools
import sys

from correct_solution import *  # noqa: F401,F403 - every other function is the instructor's solution


def patch_dim(P, C=3, depth=0):
    sys.setrecursionlimit(10**8)
    if depth < 1_000_000:
        return functools.partial(patch_dim, P, C, depth + 1)()
    return P * P * C
