"""Nested lists of arrays: twenty thousand arrays (more than a message may carry) in a ragged
nest deeper than a value may be. Refused piece by piece, never a crash: kernel-stride loses its
conv_patch_embed points."""
import numpy as np

from correct_solution import *  # noqa: F401,F403 - every other function is the instructor's solution


def conv_patch_embed(image, K, b, stride):
    nest = [np.zeros(3) for _ in range(20_000)]
    for depth in range(30):
        nest = [nest, np.ones(depth + 1)]
    return nest
