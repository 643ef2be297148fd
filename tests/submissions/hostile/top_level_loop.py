"""An infinite loop at the top level, before patch_dim is even defined. The top-level time budget
stops it, the statements after it still run, and nothing is lost: full marks, with the loop
named in the load problems."""
from correct_solution import *  # noqa: F401,F403 - every other function is the instructor's solution

while True:  # a "demo" that never ends, swallowing whatever stops it
    try:
        pass
    except BaseException:  # noqa: BLE001
        pass


def patch_dim(P, C=3):
    return P * P * C
