"""An object array holding the right numbers (as Python objects): only numeric dtypes cross, so
it is refused in the worker: kernel-stride loses its conv_patch_embed points."""
import numpy as np

from correct_solution import *  # noqa: F401,F403 - every other function is the instructor's solution
from correct_solution import conv_patch_embed as _right


def conv_patch_embed(image, K, b, stride):
    return np.asarray(_right(image, K, b, stride)).astype(object)
