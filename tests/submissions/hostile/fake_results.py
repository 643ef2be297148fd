"""Forging the results: a results.json with a perfect score in the working folder, its parent,
/autograder/results/ and the file the grader was told to write (found in its command line),
and a process left behind to write it again after the grader did. The grader writes its results
last, atomically, from the grading process, after every process of the submission ended; a
results folder root owns cannot even be written by the worker's user. Full marks (the function
is right), and the results are the grader's."""
import json
import os
import time
from pathlib import Path

from correct_solution import *  # noqa: F401,F403 - every other function is the instructor's solution

SCRATCH = Path(__file__).parent / "scratch" / Path(__file__).stem


def _me():  # this process as the test names it (process_table.identity): pids are the namespace's
    start = open("/proc/self/stat").read().rsplit(")", 1)[1].split()[19]
    inner = open("/proc/self/status").read().split("NSpid:")[1].split("\n")[0].split()[-1]
    return f"{os.stat('/proc/self/ns/pid').st_ino}:{inner}:{start}"
_forked = False
FAKE = json.dumps({"score": 1000.0, "output": "forged", "tests": []})


def _targets():
    targets = [Path("results.json"), Path("..") / "results.json", Path("/autograder/results/results.json")]
    if (SCRATCH / "guess").exists():  # where its own /proc lists no grader: a good guess
        targets.append(Path((SCRATCH / "guess").read_text()))
    pid = os.getppid()
    while pid > 1:  # the grader's command line is readable by anyone: find --json OUT
        try:
            argv = open(f"/proc/{pid}/cmdline", "rb").read().decode().split("\0")
            if "--json" in argv:
                targets.append(Path(argv[argv.index("--json") + 1]))
            pid = int(open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            break
    return targets


def _forge(targets):
    outcomes = []
    for target in targets:
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(FAKE)
            outcomes.append(f"wrote {target}")
        except OSError as exc:
            outcomes.append(f"denied {target}: {exc.strerror}")
    return outcomes


def patch_dim(P, C=3):
    targets = _targets()
    (SCRATCH / f"attempt-{os.getpid()}-{time.monotonic_ns()}").write_text("\n".join(_forge(targets)))
    global _forked
    # stay behind (once: the flag, set before the fork, not the child's pid file, which a loaded
    # machine writes after the next call) and forge again, after the grader
    if not _forked and not list(SCRATCH.glob("pid-*")):
        _forked = True
        if os.fork() != 0:
            return P * P * C
        os.setsid()
        (SCRATCH / f"pid-{_me()}").touch()
        for _ in range(3000):
            _forge(targets)
            time.sleep(0.01)
        os._exit(0)
    return P * P * C
