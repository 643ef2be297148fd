"""Signalling the grader: SIGSTOP and SIGKILL to the processes above the worker (the zygote and
the grading process), then answering right. A worker of its own user may
signal none of them: full marks, and the grading ends normally. (Run only when the grader is
root: a grader of the same user as its worker cannot stop this; see docs/security.md.)"""
import os
import signal

from correct_solution import *  # noqa: F401,F403 - every other function is the instructor's solution


def patch_dim(P, C=3):
    pid, ancestors = os.getppid(), []
    while pid > 1:  # the grader's processes only, up to `python -m grader.cli`: were this to
        try:        # work, the test should fail, not take the machine's other processes with it
            if b"grader" not in open(f"/proc/{pid}/cmdline", "rb").read():
                break
            ancestors.append(pid)
            pid = int(open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            break
    for pid in ancestors:
        for sig in (signal.SIGSTOP, signal.SIGKILL):
            try:
                os.kill(pid, sig)
            except OSError:
                pass
    return P * P * C
