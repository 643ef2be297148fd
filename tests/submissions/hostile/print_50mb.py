"""Printing 50 MB through print() in every call, and 50 MB more straight to file descriptor 1 (as C
code would) in the first call of each worker, then answering correctly. Captured, cut to the
output limit, never able to fill a pipe: full marks, in bounded time."""
import os

from correct_solution import *  # noqa: F401,F403 - every other function is the instructor's solution

_written = []


def patch_dim(P, C=3):
    print("x" * 50_000_000)
    if not _written:
        _written.append(os.write(1, b"y" * 50_000_000))
    return P * P * C
