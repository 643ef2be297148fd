"""A crash is a verdict like a timeout (issue 35, item 3; issue 39, item 6).

A function whose call killed its worker (SIGKILL, a segfault, `os._exit`) fails its other cases
and checks at once, with one line naming it, and its callers fail at once too (as they do for a
function that did not return); a fresh worker after a crash does not run the submission's top
level again. A function that did not return in time gets one short retry in all, not one per
check. Nothing here is timed: what a crash or a loop cost is counted, from lines the submission
appends to a log each time its top level runs or its loop starts looping (a loaded machine
stretches every clock, not these counts).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from test_time_per_function import (
    LOOP,
    alarms,
    allowed_losses,
    log_file,
    log_folder,
    outputs,
    scores,
    with_loop,
)
from test_worker import eventually

from grader.worker import Limits, StudentWorker
from grader.worker.limits import DEFAULT_LIMITS

from conftest import EXERCISES, SOLUTION

CRASH = "    import os, signal\n    os.kill(os.getpid(), signal.SIGKILL)\n"
CRASHED = "`{}` crashed the worker: the worker process died (signal 9: SIGKILL)"
# each function a check of its own exercise calls: six crashes in six exercises
SIX = ("patchify", "softmax", "layer_norm", "gelu", "self_attention", "num_patches")


def counted(source: str, log: Path, sleep: float) -> str:
    """`source` whose top level appends a line to `log` each time it runs, then sleeps."""
    return (f"with open({str(log)!r}, 'a') as _log:\n    _log.write('ran\\n')\n"
            f"__import__('time').sleep({sleep})\n" + source)


def with_crash(source: str, function: str) -> str:
    """The solution's source with `function` killing its own worker as its first statement."""
    found = re.search(rf'^def {function}\(.*?\):\n    """.*?"""\n', source, re.S | re.M)
    assert found, function
    return source[:found.end()] + CRASH + source[found.end():]


def runs(log: Path) -> int:
    return len(log.read_text().splitlines())


def grade(submission: Path, *flags: str) -> dict:
    out = submission.with_suffix(".json")
    command = [sys.executable, "-m", "grader.cli", "grade", str(submission), "--json", str(out),
               "--exercises", str(EXERCISES), *flags]
    subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=submission.parent)
    return json.loads(out.read_text())


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    folder = tmp_path_factory.mktemp("crashes")
    folder.chmod(0o755)  # as root, the worker (a user of its own) reads the submissions
    log_folder(folder)
    return folder


@pytest.fixture(scope="module")
def solution(folder):
    path = folder / "solution.py"
    path.write_text(SOLUTION.read_text())
    return grade(path)


@pytest.fixture(scope="module")
def crashing_softmax(folder):
    """(results, times the top level ran) of the solution with a slow top level and a softmax
    that kills its worker."""
    log = log_file(folder / ".logs", "softmax")
    path = folder / "crashing_softmax.py"
    path.write_text(counted(with_crash(SOLUTION.read_text(), "softmax"), log, 0.5))
    return grade(path), runs(log)


def test_a_crash_does_not_run_the_top_level_again(crashing_softmax):
    _, ran = crashing_softmax
    assert ran == 1


def test_a_crashing_function_fails_its_checks_with_one_line_naming_it(crashing_softmax, catalogue):
    results, _ = crashing_softmax
    text = outputs(results, "stable-softmax")
    assert CRASHED.format("softmax") in text and "Traceback" not in text
    assert scores(results)["stable-softmax"] == 0


def test_a_crashing_function_costs_points_only_where_it_is_used(crashing_softmax, solution,
                                                                catalogue):
    results, _ = crashing_softmax
    expected, got = scores(solution), scores(results)
    lost = {e for e in expected if got[e] < expected[e]}
    assert "stable-softmax" in lost and lost <= allowed_losses(catalogue, "softmax"), lost


def test_six_crashing_functions_leave_time_for_the_answers(folder, solution, catalogue):
    log = log_file(folder / ".logs", "six")
    source = SOLUTION.read_text()
    for function in SIX:
        source = with_crash(source, function)
    path = folder / "six.py"
    path.write_text(counted(source, log, 1.0))
    # today's 90 s shrunk to 30: each crash that ran the top level again cost a second of it
    results = grade(path, "--submission-timeout", "30")
    assert runs(log) == 1
    expected, got = scores(solution), scores(results)
    answers = {e.id for e in catalogue if all(set(c.names_read()) == {"ANSWERS"}
                                              for c in e.checks)}
    assert answers and all(got[e] == expected[e] > 0 for e in answers), got
    assert "out of time" not in json.dumps(results)


def test_a_looping_function_is_charged_one_timeout_and_one_short_retry(folder, solution):
    log = log_file(folder / ".logs", "patchify")
    path = folder / "loop_patchify.py"
    path.write_text(with_loop(SOLUTION.read_text(), "patchify", LOOP, log))
    grade(path)
    looped = alarms(log)  # of each worker, the alarm its loop met: a full timeout, then retries
    full = [seconds for seconds in looped if seconds > DEFAULT_LIMITS.retry_timeout]
    assert len(full) == 1 and len(looped) <= 2, looped


def test_a_crashed_function_fails_at_once_in_its_callers_and_its_own_calls(tmp_path):
    log = log_file(log_folder(tmp_path), "runs")
    tmp_path.chmod(0o755)
    source = counted(f"def crash():\n{CRASH}\ndef caller():\n    return crash()\n\n"
                     "def fine():\n    return 1\n", log, 0.0)
    path = tmp_path / "crashes.py"
    path.write_text(source)
    with StudentWorker(path, Limits(call_timeout=30.0)) as worker:
        first = worker.call("crash")
        assert first.status == "crashed" and first.message.startswith(CRASHED.format("crash"))
        again = worker.call("crash")
        assert again.status == "crashed" and again.message == first.message
        assert again.seconds == 0  # not run
        called = worker.call("caller")  # its helper is not run: it raises at once
        assert called.status == "raised" and "`crash` crashed" in called.error.message
        assert worker.call("fine").value == 1
        assert worker.crashed.keys() == {"crash"}
    assert runs(log) == 1


def test_a_call_deaf_to_its_alarm_costs_a_fork_not_a_load(tmp_path):
    log = log_file(log_folder(tmp_path), "runs")
    tmp_path.chmod(0o755)
    source = counted("import os, signal\n\ndef deaf():\n    signal.pthread_sigmask("
                     "signal.SIG_BLOCK, [signal.SIGALRM])\n    while True:\n        pass\n\n"
                     "def pid():\n    return os.getpid()\n", log, 0.0)
    path = tmp_path / "deaf.py"
    path.write_text(source)
    with StudentWorker(path, Limits(call_timeout=30.0)) as worker:
        before = worker.call("pid").value
        assert worker.call("deaf", timeout=0.3).status == "timeout"  # killed at its deadline
        assert worker.call("pid").value != before  # answered by a process forked again
    assert runs(log) == 1


def test_what_a_crashed_call_started_goes_with_it(tmp_path):
    marker = f"{60 + (os.getpid() % 997) / 1000:.3f}"  # sleep's argument, unique to this run
    source = ("import os, subprocess\n\ndef crash():\n"
              f"    subprocess.Popen(['sleep', '{marker}'])\n    os._exit(1)\n\n"
              "def fine():\n    return 1\n")
    path = tmp_path / "starts.py"
    path.write_text(source)
    tmp_path.chmod(0o755)
    with StudentWorker(path, Limits(call_timeout=30.0)) as worker:
        assert worker.call("crash").status == "crashed"
        assert worker.call("fine").value == 1
        assert eventually(lambda: not sleeping(marker))  # while the worker lives on


def sleeping(marker: str) -> bool:
    """Whether a `sleep MARKER` runs, read from /proc."""
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and (entry / "cmdline").read_bytes() == (
                    f"sleep\0{marker}\0".encode()):
                return True
        except OSError:
            continue
    return False


