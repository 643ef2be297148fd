"""A fork bomb whose every process spins forever, ignoring failures: the process limit caps it,
the call times out, and every process it made is killed. Only flatten-length loses its points."""
import os
from pathlib import Path

from correct_solution import *  # noqa: F401,F403 - every other function is the instructor's solution

SCRATCH = Path(__file__).parent / "scratch" / Path(__file__).stem


def patch_dim(P, C=3):
    (SCRATCH / f"uid-{os.getuid()}").touch()  # the test checks no process of this user is left
    while True:
        try:
            if os.fork() == 0:
                (SCRATCH / f"pid-{os.getpid()}").touch()
        except OSError:
            pass
