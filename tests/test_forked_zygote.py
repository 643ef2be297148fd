"""`vitgrade grade` forks its zygote from itself, before it reads anything of the course
(grader/worker/forked_zygote.py): student code must find neither the grading process's
environment nor anything of the reference, specs or checks in its memory."""
from __future__ import annotations

import os
import subprocess
import sys
import threading

from grader.worker import forked_zygote
from grader.worker.zygote_handle import WORKER_ENV, Zygote

from conftest import SUBMISSIONS

ROOT = SUBMISSIONS.parents[1]
TOKEN = "YELOWHARKORTIQUE"  # memory_scan.py's halves, reversed back
STUDENT_ID = "GRAMMISONLANDSWET"


def test_student_code_finds_nothing_of_the_graders_environment_in_its_memory(tmp_path):
    """The grading process's environment holds a token; its command line holds a marker too.
    The student's code reads all of its memory: the command line's marker is there (the pages
    it shares with the grading process are read: the search works), the token is not, and no
    module of the reference, specs or checks is loaded."""
    submission = tmp_path / "vit_exercises.py"
    scan = (SUBMISSIONS / "worker" / "memory_scan.py").read_text()
    submission.write_text((ROOT / "solutions" / "vit_exercises.py").read_text() + "\n" + scan)
    env = {**os.environ, "VITGRADE_TEST_TOKEN": TOKEN}
    done = subprocess.run(
        [sys.executable, "-m", "grader.cli", "grade", str(submission), "--student-id", STUDENT_ID,
         "--call-timeout", "60", "--exercises", str(ROOT / "exercises")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    printed = [line.strip() for line in done.stdout.splitlines() if "markers found" in line]
    assert printed, done.stdout + done.stderr
    assert set(printed) == {"forbidden modules: []; markers found: "
                            "{'env': False, 'argv': True}"}


FORKED_AND_CLOSED = """
import os, sys
from grader.worker import forked_zygote
from grader.worker.zygote_handle import Zygote
with Zygote(forked=True) as zygote:
    print(type(zygote.process).__name__, "numpy" in zygote.loaded_modules())
    pid = zygote.process.pid
try:
    os.waitpid(pid, os.WNOHANG)
except ChildProcessError:
    print("reaped", zygote.process.returncode)
"""


def test_a_forked_zygote_answers_and_ends_leaving_no_zombie():
    """In a process as `vitgrade grade` is when it starts one (one BLAS thread, no other)."""
    env = {**os.environ, **{name: "1" for name in forked_zygote.BLAS_THREADS}}
    done = subprocess.run([sys.executable, "-c", FORKED_AND_CLOSED], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.stdout.split() == ["ForkedProcess", "True", "reaped", "0"], done.stderr


def test_the_zygote_is_spawned_where_a_fork_would_not_be_as_clean(monkeypatch):
    """BLAS threads the workers would not have, or another thread running (a fork copies a
    thread's locks half-way): spawned, as always before."""
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "4")
    assert not forked_zygote.possible(WORKER_ENV)
    for name in forked_zygote.BLAS_THREADS:
        monkeypatch.setenv(name, "1")
    running = threading.Event()
    thread = threading.Thread(target=running.wait)
    thread.start()
    try:
        assert forked_zygote.threads() >= 2 and not forked_zygote.possible(WORKER_ENV)
        with Zygote(forked=True) as zygote:
            assert type(zygote.process) is subprocess.Popen
            zygote.wait_ready()
    finally:
        running.set()
        thread.join()


def test_no_fork_where_the_child_could_not_find_the_environment_to_rub_out(monkeypatch):
    for name in forked_zygote.BLAS_THREADS:
        monkeypatch.setenv(name, "1")
    monkeypatch.setattr(forked_zygote, "threads", lambda: 1)
    assert forked_zygote.possible(WORKER_ENV)  # as `vitgrade grade` is when it starts one

    def unknown(which):
        raise OSError("no /proc")

    monkeypatch.setattr(forked_zygote, "exec_block", unknown)
    assert not forked_zygote.possible(WORKER_ENV)


SHARED = """
import sys
from grader.worker.zygote_handle import Zygote
with Zygote(forked=True) as zygote:
    pass
print(sorted(m for m in ("grader.worker.capture", "grader.worker.linux",
                         "grader.worker.processes") if m in sys.modules))
"""


def test_a_forked_zygote_shares_the_workers_modules():
    """The worker modules both processes use are imported before the fork, once
    (forked_zygote.start), not once in each."""
    env = {**os.environ, **{name: "1" for name in forked_zygote.BLAS_THREADS}}
    done = subprocess.run([sys.executable, "-c", SHARED], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.stdout.splitlines() == [
        "['grader.worker.capture', 'grader.worker.linux', 'grader.worker.processes']"
    ], done.stderr
