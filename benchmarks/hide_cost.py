"""What hiding the grader's secrets costs each worker: the zygote's fork into a PID namespace of
the worker's own (hiding.fork), unshare of the mount, network, IPC and UTS namespaces, the file
system view's mounts, its own /proc, chroot.

    sudo python benchmarks/hide_cost.py [--workers 200]

Forks `--workers` children of a process that has imported grader.worker (as the zygote has);
each times `hiding.hide` with this run's hidden paths (grader/secret_paths.py for the shipped
solution) and the worker's kept folders, and exits. Prints the median and the 95th percentile of
`hide` and of the fork to the child hidden, and, alternated with them, a plain fork without hiding
(from fork to its exit reaped) for scale.
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


def one_worker(paths: list[str], keep: list[str], hide: bool) -> tuple[float, float, float]:
    """Fork a child as the zygote does (`hiding.fork`: into a PID namespace of its own) that
    hides (or, with a plain fork, not) -> (seconds hiding took in the child, seconds from the
    fork to the child hidden, from the fork to its exit reaped)."""
    read, write = os.pipe()
    start = time.perf_counter()
    pid = getattr(hiding, "fork", os.fork)() if hide else os.fork()
    if pid == 0:
        os.close(read)
        began = time.perf_counter()
        if hide:
            outcome = hiding.hide(paths, keep)
            if outcome["mechanism"] != "view":
                os.write(write, struct.pack("dd", -1.0, -1.0))
                os._exit(1)
        os.write(write, struct.pack("dd", time.perf_counter() - began, time.perf_counter()))
        os._exit(0)
    os.close(write)
    inside, hidden = struct.unpack("dd", os.read(read, 16))
    os.close(read)
    os.waitpid(pid, 0)
    if inside < 0:
        raise SystemExit("hiding failed: run as root on Linux")
    reaped = time.perf_counter() - start  # a worker's namespaces end with it: part of its cost
    return (inside, hidden - start, reaped) if hide else (0.0, reaped, reaped)


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
    hide, hidden, reaped, fork = [], [], [], []
    try:
        for _ in range(args.workers):  # alternated: a busy machine slows both alike
            inside, total, ended = one_worker(paths, keep, True)
            hide.append(inside)
            hidden.append(total)
            reaped.append(ended)
            time.sleep(args.gap)
            fork.append(one_worker(paths, keep, False)[1])
            time.sleep(args.gap)
    finally:
        os.rmdir(workdir)
    for name, times in (("hide (in the worker)", hide), ("fork to hidden", hidden),
                        ("fork to hidden, reaped", reaped), ("fork, wait (no hiding)", fork)):
        ordered = sorted(times)
        print(f"{name:24} median {statistics.median(times) * 1000:.2f} ms, "
              f"95th percentile {ordered[int(len(ordered) * 0.95)] * 1000:.2f} ms, "
              f"{len(times)} workers")
    print(f"{len(hiding.view_plan())} entries in every view; {len(paths)} paths asked to hide")


if __name__ == "__main__":
    main()
