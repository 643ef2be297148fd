"""A long-lived grading process of `vitgrade grade-all`: submission after submission, one zygote.

    python -m grader.batch.job --settings JSON --results DIR --parent PID

(grade_all.py `_job_command` starts it, `python -I`, with its resolved settings as JSON.)
Once set up it says {"ready": true}; then it reads one JSON task per line on stdin ({"student",
"path", "shown"}), grades it with the driver, writes OUT/results/<student>.json, and answers one
JSON line on stdout ({"student", "status", "score", "max_score", "fatal", "seconds"}). It ends
when stdin closes or its parent dies. Importing the grader and numpy once per job, not per
student, is what makes a class fast to grade.
"""
from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import time
import traceback

from grader.settings import GraderSettings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m grader.batch.job")
    parser.add_argument("--settings", required=True, help="GraderSettings.to_json()")
    parser.add_argument("--results", required=True)
    parser.add_argument("--parent", type=int, required=True)
    args = parser.parse_args(argv)
    protocol = _take_stdout()
    if not _die_with_parent(args.parent):
        return 0
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the coordinator owns ^C and stops us itself
    from grader.worker.zygote_handle import FORK_AVAILABLE, Zygote

    zygote = Zygote() if FORK_AVAILABLE else None  # its numpy imports while we import the rest
    from grader.batch import fingerprints
    from grader.batch.records import GRADED, Record, now, write_record
    from grader.driver import Driver

    settings = GraderSettings.from_json(args.settings)
    exercises = settings.exercises
    # hashed before they are loaded: a spec edited meanwhile makes the records look stale, not new
    specs = fingerprints.specs_sha256(exercises)
    grader = Driver(settings, zygote)
    versions = {"specs_sha256": fingerprints.graded_with(settings, grader.catalogue.exercises,
                                                         specs),
                "grader_version": fingerprints.grader_version()}
    _answer(protocol, {"ready": True})  # the coordinator's clock for a submission starts after this
    from grader.process_setup import freeze_loaded_objects

    frozen = False
    try:
        for line in sys.stdin:
            if not line.strip():
                continue
            task = json.loads(line)
            start = time.perf_counter()
            try:  # whatever the file does to the grader costs this student's record only
                content = fingerprints.submission_sha256(task["path"])  # before loading
                report = grader.grade(task["path"], shown=task.get("shown"),
                                      student_id=task["student"]).report  # their variants
            except Exception as exc:  # noqa: BLE001 - the grader's failure on this one, told to the coordinator
                traceback.print_exc()
                _answer(protocol, {"student": task["student"], "status": "error",
                                   "reason": f"could not be read: {type(exc).__name__}: "
                                             f"{str(exc)[:500]}"})
                if grader.zygote is not None and not grader.zygote.alive:
                    grader.zygote.close()
                    grader.zygote = Zygote()
                continue
            code = fingerprints.code_fingerprints(task["path"], exercises)  # similar code
            seconds = time.perf_counter() - start
            write_record(args.results, Record(task["student"], task["path"], GRADED, report, "",
                                              seconds, now(), content, **versions, code=code))
            _answer(protocol, {"student": task["student"], "status": GRADED, "score": report.score,
                               "max_score": report.max_score, "fatal": report.fatal,
                               "seconds": seconds})
            if not frozen:  # the cases are planned now: they stay out of the collector's way
                freeze_loaded_objects()
                frozen = True
    finally:
        grader.close()
    return 0


def _take_stdout():
    """The answer channel, kept apart: fd 1 then points at stderr, so no stray print corrupts it."""
    channel = os.fdopen(os.dup(1), "w", encoding="utf-8", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return channel


def _die_with_parent(parent: int) -> bool:
    """SIGTERM this process when the coordinator dies (even by SIGKILL): no orphaned graders.
    False when it died before the request took effect."""
    from grader.worker import linux

    linux.prctl(linux.PR_SET_PDEATHSIG, signal.SIGTERM)
    return os.getppid() == parent


def _answer(channel, message: dict) -> None:
    channel.write(json.dumps(message, allow_nan=False) + "\n")
    channel.flush()


if __name__ == "__main__":
    sys.exit(main())
