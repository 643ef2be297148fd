"""An infinite loop in a function. The call times out, the worker is killed, and a fresh one grades
the rest: only flatten-length (which calls patch_dim) loses its points."""
from correct_solution import *  # noqa: F401,F403 - every other function is the instructor's solution


def patch_dim(P, C=3):
    while True:
        try:
            pass
        except BaseException:  # noqa: BLE001 - nothing raised in the worker can stop it
            pass
