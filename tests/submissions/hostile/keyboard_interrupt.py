"""Raising KeyboardInterrupt (what ^C raises) in a function: the student's exception, not the
grader's ^C. Only flatten-length loses its points."""
from correct_solution import *  # noqa: F401,F403 - every other function is the instructor's solution


def patch_dim(P, C=3):
    raise KeyboardInterrupt
