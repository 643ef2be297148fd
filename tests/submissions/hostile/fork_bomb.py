"""A fork bomb whose every process spins forever, ignoring failures: the process limit caps it,
the call times out, and every process it made is killed. Only flatten-length loses its points."""
import os
from pathlib import Path

from correct_solution import *  # noqa: F401,F403 - every other function is the instructor's solution

SCRATCH = Path(__file__).parent / "scratch" / Path(__file__).stem


def _me():  # this process as the test names it (process_table.identity): pids are the namespace's
    start = open("/proc/self/stat").read().rsplit(")", 1)[1].split()[19]
    inner = open("/proc/self/status").read().split("NSpid:")[1].split("\n")[0].split()[-1]
    return f"{os.stat('/proc/self/ns/pid').st_ino}:{inner}:{start}"


def patch_dim(P, C=3):
    (SCRATCH / f"uid-{os.getuid()}").touch()  # the test checks no process of this user is left
    while True:
        try:
            if os.fork() == 0:
                (SCRATCH / f"pid-{_me()}").touch()
        except OSError:
            pass
