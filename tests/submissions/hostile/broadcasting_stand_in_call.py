"""layer_norm is left a stub, and softmax, before its own correct code, calls layer_norm with 19 KB
of arguments shaped (800, 1, 1), (1, 800, 1) and (1, 1, 800), which broadcast to 512 million
numbers (4 GB). Answered by running the reference in the grading process, the call made the
grader allocate gigabytes. The grader never runs anything for a stand-in: the call is not one
the course solution makes, so it is unavailable at once."""
import numpy as np

from correct_solution import *  # noqa: F401,F403 - every other function is the instructor's solution
from correct_solution import softmax as _correct_softmax


def layer_norm(x, gamma, beta, eps=1e-6):
    raise NotImplementedError()


def softmax(x, axis=-1):
    n = 800
    layer_norm(np.ones((n, 1, 1)), np.ones((1, n, 1)), np.ones((1, 1, n)))
    return _correct_softmax(x, axis)
