"""An ndarray subclass holding wrong numbers that says it equals anything (==, allclose through
__array_function__, __array_ufunc__) and lies about its shape. It leaves the worker as a plain
array of its real numbers: kernel-stride loses its conv_patch_embed points."""
import numpy as np

from correct_solution import *  # noqa: F401,F403 - every other function is the instructor's solution


class Liar(np.ndarray):
    def __eq__(self, other):
        return True

    __ne__ = __lt__ = __gt__ = lambda self, other: False

    def __array_function__(self, func, types, args, kwargs):
        return True

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        return True

    def __len__(self):
        return 10**9


def conv_patch_embed(image, K, b, stride):
    return np.zeros((1, 1, 1)).view(Liar)
