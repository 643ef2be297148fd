"""An array of 10**12 elements (8 TB), a broadcast view of one number that costs nothing to make.
Refused in the worker from its shape, never allocated: kernel-stride loses its conv_patch_embed points."""
import numpy as np

from correct_solution import *  # noqa: F401,F403 - every other function is the instructor's solution


def conv_patch_embed(image, K, b, stride):
    return np.broadcast_to(np.float64(0.5), (10**6, 10**6))
