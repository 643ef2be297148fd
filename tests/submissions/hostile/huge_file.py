"""Writing a file of a gigabyte, 1 MB at a time (never more than 1 MB in memory): the file-size
limit stops it at its size, with an OSError naming the limit. Only flatten-length loses its points."""
from correct_solution import *  # noqa: F401,F403 - every other function is the instructor's solution


def patch_dim(P, C=3):
    with open("huge.bin", "wb") as out:
        for _ in range(1024):
            out.write(b"\0" * 2**20)
    return P * P * C
