"""A memory bomb that touches every page it takes: the address-space limit turns it into
MemoryError, whose message names the limit. Only flatten-length loses its points."""
import numpy as np

from correct_solution import *  # noqa: F401,F403 - every other function is the instructor's solution


def patch_dim(P, C=3):
    hoard = []
    while True:
        hoard.append(np.ones(2**24))  # 128 MB, written
