"""os._exit() in a function: the worker process ends at once. A crash for that call; a fresh
worker grades the rest. Only flatten-length loses its points."""
import os

from correct_solution import *  # noqa: F401,F403 - every other function is the instructor's solution


def patch_dim(P, C=3):
    os._exit(0)
