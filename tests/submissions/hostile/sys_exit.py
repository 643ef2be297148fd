"""sys.exit() in a function: an exception like any other (SystemExit). The worker survives; only
flatten-length loses its points."""
import sys

from correct_solution import *  # noqa: F401,F403 - every other function is the instructor's solution


def patch_dim(P, C=3):
    sys.exit(0)
