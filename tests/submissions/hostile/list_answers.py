"""Right answers returned as long nested Python lists instead of arrays (patchify of a 224x224
image: 150 000 numbers, megabytes of JSON): graded like arrays, no point lost."""
import correct_solution
from correct_solution import *  # noqa: F401,F403 - every other function is the instructor's solution


def patchify(image, P):
    return correct_solution.patchify(image, P).tolist()
