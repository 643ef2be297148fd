"""What hiding the grader's secrets costs each worker: unshare(CLONE_NEWNS | CLONE_NEWNET), the
file system view's mounts, pivot_root.

    sudo python benchmarks/hide_cost.py [--workers 200]

Forks `--workers` children of a process that has imported grader.worker (as the zygote has);
each times `hiding.hide` with this run's hidden paths (grader/secret_paths.py for the shipped
solution) and the worker's kept folders, and exits. Prints the median and the 95th percentile,
and, alternated with them, a fork without hiding (from fork to its exit reaped) for scale.
Needs root (else hiding does nothing, in no time).
"""
from __future__ import annotations

import argparse
import os
import statistics
import struct
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from grader.secret_paths import hidden_paths  # noqa: E402
from grader.settings import GraderSettings  # noqa: E402
from grader.worker import hiding  # noqa: E402


def one_worker(paths: list[str], keep: list[str], hide: bool) -> float:
    """Fork a child that hides (or not) and reports how long it took, in seconds."""
    read, write = os.pipe()
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        began = time.perf_counter()
        if hide:
            outcome = hiding.hide(paths, keep)
            if outcome["mechanism"] != "view":
                os.write(write, struct.pack("d", -1.0))
                os._exit(1)
        os.write(write, struct.pack("d", time.perf_counter() - began))
        os._exit(0)
    os.close(write)
    inside = struct.unpack("d", os.read(read, 8))[0]
    os.close(read)
    os.waitpid(pid, 0)
    if inside < 0:
        raise SystemExit("hiding failed: run as root on Linux")
    return inside if hide else time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--workers", type=int, default=200)
    parser.add_argument("--gap", type=float, default=0.0,
                        help="seconds between workers (a class's pace: about 0.1)")
    args = parser.parse_args()
    submission = ROOT / "solutions" / "vit_exercises.py"
    paths = list(hidden_paths(GraderSettings(student=submission, exercises=ROOT / "exercises")))
    workdir = tempfile.mkdtemp(prefix="vitgrade-worker-")
    keep = [workdir, str(submission.parent)]
    hiding.view_plan()  # as the zygote does before it forks
    hide, fork = [], []
    try:
        for _ in range(args.workers):  # alternated: a busy machine slows both alike
            hide.append(one_worker(paths, keep, True))
            time.sleep(args.gap)
            fork.append(one_worker(paths, keep, False))
            time.sleep(args.gap)
    finally:
        os.rmdir(workdir)
    for name, times in (("hide (in the worker)", hide), ("fork, wait (no hiding)", fork)):
        ordered = sorted(times)
        print(f"{name:24} median {statistics.median(times) * 1000:.2f} ms, "
              f"95th percentile {ordered[int(len(ordered) * 0.95)] * 1000:.2f} ms, "
              f"{len(times)} workers")
    print(f"{len(hiding.view_plan())} entries in every view; {len(paths)} paths asked to hide")


if __name__ == "__main__":
    main()
