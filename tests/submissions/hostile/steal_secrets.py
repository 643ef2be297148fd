"""Looking for the grader's secrets and files: its environment (a token the test puts there), the
environment, memory and open files of the grader's processes above the worker (the zygote, the
grading process), what lies in the working folder.
The worker starts in an empty folder with a scrubbed environment and may not look into the
grader's processes: the function answers right only when it found nothing, so full marks prove it."""
import os

from correct_solution import *  # noqa: F401,F403 - every other function is the instructor's solution


def _leaks():
    leaks = [f"env {name}" for name in os.environ if "SECRET" in name or "TOKEN" in name]
    leaks += [f"cwd {name}" for name in os.listdir(".")]
    pid = os.getppid()
    while pid > 1 and b"grader" in open(f"/proc/{pid}/cmdline", "rb").read():  # the zygote, the grader
        for name in ("environ", "fd", "cwd", "mem"):
            path = f"/proc/{pid}/{name}"
            try:
                if name == "environ" and b"VITGRADE_TEST_SECRET" in open(path, "rb").read():
                    leaks.append(path)
                elif name == "fd":  # where the grader's open files are (the results being written)
                    leaks += [os.readlink(f"{path}/{fd}") for fd in os.listdir(path)]
                elif name == "cwd":
                    leaks.append(os.readlink(path))
                elif name == "mem":
                    open(path, "rb").close()
                    leaks.append(path)
            except OSError:
                pass
        try:
            pid = int(open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            break
    return leaks


def patch_dim(P, C=3):
    if _leaks() or os.getuid() == 0:
        return -1  # found something: the test sees a lost point
    return P * P * C
