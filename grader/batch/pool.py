"""The grading jobs, seen from the coordinator: hand out submissions, watch deadlines, restart.

Each job is a `python -I` process running grader.batch.job (grade_all.py `_job_command`) in a
session of its own, fed QUEUED submissions at a time once it says it is ready. A submission's
deadline counts from when the job can start it. A job that misses it, or dies, is killed with
its whole process group and replaced; that submission gets a `timeout` or `error` outcome, and
the ones queued behind it go back to the queue.
"""
from __future__ import annotations

import json
import os
import selectors
import subprocess
import sys
import time
from collections import deque
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

from grader.worker import linux
from grader.worker.processes import kill_group, sweep

MAX_FAILED_STARTS = 3   # jobs that die before they are ready, in a row: the environment is broken
STARTUP_TIMEOUT = 120.0  # seconds for a job to import, load the specs and start its zygote
QUEUED = 2  # submissions given to a job at once: the one it grades and the next


@dataclass(frozen=True)
class Task:
    student: str
    path: str       # absolute
    shown: str      # the name students see


@dataclass(frozen=True)
class Outcome:
    task: Task
    status: str                 # graded | timeout | error
    message: dict               # the job's answer, or {"reason": ...}


class PoolError(RuntimeError):
    """The grading jobs cannot start (the environment, not a submission): the batch stops."""


class Job:
    def __init__(self, command: list[str], cwd: Path, env: dict, log):
        self.process = subprocess.Popen(command, cwd=cwd, env=env, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=log,
                                        start_new_session=True, bufsize=0)
        # set up (imports, specs, zygote): a submission's clock starts after
        self.ready = False
        self.started = time.monotonic()
        self.tasks: deque[Task] = deque()  # given, in order; the first is being graded
        self.deadline = float("inf")  # of the first
        self.buffer = b""

    @property
    def task(self) -> Task | None:
        """The submission being graded, if any."""
        return self.tasks[0] if self.tasks else None

    @property
    def fd(self) -> int:
        return self.process.stdout.fileno()

    def give(self, task: Task, timeout: float) -> None:
        line = json.dumps({"student": task.student, "path": task.path, "shown": task.shown}) + "\n"
        self.process.stdin.write(line.encode("utf-8"))
        self.tasks.append(task)
        if len(self.tasks) == 1:
            self.deadline = time.monotonic() + timeout

    def done(self, timeout: float) -> None:
        """The first submission ended: the next one's clock starts now."""
        self.tasks.popleft()
        self.deadline = time.monotonic() + timeout if self.tasks else float("inf")

    def kill(self, spared: set[int] = frozenset()) -> None:
        """SIGKILL the job's whole group (workers die with its zygote), reap it, then sweep the
        daemons its tree left (re-parented to us, a subreaper). `spared`: the other live jobs'
        pids, with all they run."""
        kill_group(self.process.pid)
        self.process.wait()
        sweep(None, set(spared))
        for stream in (self.process.stdin, self.process.stdout):
            with suppress(OSError):
                stream.close()


def run_pool(tasks: list[Task], jobs: int, timeout: float, start_job: Callable[[], Job],
             on_outcome: Callable[[Outcome], None]) -> None:
    """Grade `tasks` on `jobs` jobs; `on_outcome` is called as each submission finishes."""
    pending = deque(tasks)
    selector = selectors.DefaultSelector()
    linux.prctl(linux.PR_SET_CHILD_SUBREAPER, 1)  # what a killed job's tree leaves comes to us
    running: list[Job] = []
    failed_starts = 0

    def add_job() -> None:
        job = start_job()
        running.append(job)
        selector.register(job.fd, selectors.EVENT_READ, job)

    def replace(job: Job) -> None:
        nonlocal failed_starts
        pending.extendleft(reversed(list(job.tasks)[1:]))  # given, not started: back in line
        job.tasks.clear()
        selector.unregister(job.fd)
        running.remove(job)
        job.kill(spared={other.process.pid for other in running})
        failed_starts = 0 if job.ready else failed_starts + 1
        if failed_starts >= MAX_FAILED_STARTS:
            raise PoolError(f"{failed_starts} grading jobs in a row ended before they were ready: "
                            "see their logs (OUT/logs/job-*.log)")
        if pending:
            add_job()

    for _ in range(min(jobs, len(pending))):
        add_job()
    try:
        while pending or any(job.task for job in running):
            for job in running:
                while job.ready and job.buffer is not None and len(job.tasks) < QUEUED and pending:
                    task = pending.popleft()
                    try:
                        job.give(task, timeout)
                    except OSError:  # the job is already gone; the reader notices, replaces it
                        pending.appendleft(task)
                        job.buffer = None
            wait = min((job.deadline for job in running if job.task),
                       default=time.monotonic() + 1) - time.monotonic()
            for key, _ in selector.select(max(0.0, min(wait, 1.0))):
                job = key.data
                for answer in _read_answers(job):
                    if answer.get("ready"):
                        job.ready = True
                    elif job.task is not None and answer.get("student") == job.task.student:
                        on_outcome(Outcome(job.task, answer.get("status", "error"), answer))
                        job.done(timeout)
                if job.process.poll() is not None or job.buffer is None:
                    if job.task is not None:
                        code = job.process.wait()
                        on_outcome(Outcome(job.task, "error", {
                            "reason": f"the grading process ended (exit code {code}) "
                                      "while grading this submission"}))
                    replace(job)
            now = time.monotonic()
            for job in [j for j in running if j.task and j.deadline < now]:
                on_outcome(Outcome(job.task, "timeout",
                                   {"reason": f"grading took longer than {timeout:g} s"}))
                replace(job)
            for job in [j for j in running if not j.ready and now - j.started > STARTUP_TIMEOUT]:
                replace(job)
    except BaseException:  # ^C or a bug here: stop every job now, whatever it was doing
        for job in running:
            job.kill()
        sweep(None, set())
        raise
    finally:
        selector.close()
    for job in running:  # all idle: closing stdin, each closes its zygote and exits
        with suppress(OSError):
            job.process.stdin.close()
    deadline = time.monotonic() + 10
    for index, job in enumerate(running):
        with suppress(subprocess.TimeoutExpired):
            job.process.wait(timeout=max(0.1, deadline - time.monotonic()))
        job.kill(spared={later.process.pid for later in running[index + 1 :]})


def _read_answers(job: Job) -> list[dict]:
    """Complete answer lines available from the job; sets job.buffer to None at end of file."""
    if job.buffer is None:
        return []
    try:
        data = os.read(job.fd, 65536)
    except OSError:
        data = b""
    if not data:
        job.buffer = None
        return []
    job.buffer += data
    *lines, job.buffer = job.buffer.split(b"\n")
    answers = []
    for line in lines:
        try:
            answers.append(json.loads(line))
        except ValueError:
            print(f"vitgrade grade-all: ignored a malformed line from a grading job: "
                  f"{line[:200]!r}", file=sys.stderr)
    return answers
