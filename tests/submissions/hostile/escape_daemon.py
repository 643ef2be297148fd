"""A daemon that escapes the worker's process group and session (double fork, setsid, exec with a
new name) and then answers correctly: full marks, and the daemon does not outlive the grading."""
import os
import shutil
from pathlib import Path

from correct_solution import *  # noqa: F401,F403 - every other function is the instructor's solution

SCRATCH = Path(__file__).parent / "scratch" / Path(__file__).stem


def _me():  # this process as the test names it (process_table.identity): pids are the namespace's
    start = open("/proc/self/stat").read().rsplit(")", 1)[1].split()[19]
    inner = open("/proc/self/status").read().split("NSpid:")[1].split("\n")[0].split()[-1]
    return f"{os.stat('/proc/self/ns/pid').st_ino}:{inner}:{start}"


def patch_dim(P, C=3):
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            (SCRATCH / f"pid-{_me()}").touch()
            marker = (SCRATCH / "marker").read_text()
            os.execv(shutil.which("sleep") or "/bin/sleep", [marker, "1000"])
        os._exit(0)
    os.wait()
    return P * P * C
