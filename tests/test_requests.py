"""Several calls in one request (StudentWorker.call_many): each keeps what a single call gives.

Each call's timeout is its own and counts from the end of the one before it; the call that hangs
or kills the worker is the one named, and the calls after it are not run; every reply is the
value at its call's return; a reply too large for the channel is described, not sent.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import numpy as np
import pytest

from grader.worker import CallOutcome, Limits, StudentWorker
from grader.worker.student_worker import OUT_OF_TIME, STOPPED
from grader.worker.values import encode_call

pytestmark = pytest.mark.usefixtures("zygote")  # tests/conftest.py

PROBE = '''
import os, time
import numpy as np

def busy(seconds):
    time.sleep(seconds)
    return seconds

def spin_on(i, bad):
    while i == bad:
        pass
    return i

def die_on(i, bad):
    if i == bad:
        os._exit(3)
    return i

_buffer = np.zeros(3)

def fill(value):
    _buffer[:] = value  # one buffer changed in place at every call
    return _buffer

def text(megabytes):
    return "x" * int(megabytes * 2**20)

def numbers(n):
    return list(range(n))
'''


@pytest.fixture
def probe(tmp_path: Path):
    (tmp_path / "probe.py").write_text(PROBE)
    with StudentWorker(tmp_path / "probe.py", Limits(call_timeout=5.0, load_timeout=5.0)) as worker:
        yield worker


def test_each_calls_timeout_counts_from_the_end_of_the_one_before(probe):
    # 1 s in all, twice the timeout; each call 10 ms, 40 times less than its alarm (0.4 s)
    outcomes = probe.call_many("busy", [encode_call((0.01,))] * 100, timeout=0.5)
    assert [o.status for o in outcomes] == ["ok"] * 100


def test_the_call_that_hangs_is_the_one_named_and_the_rest_are_not_run(probe):
    outcomes = probe.call_many("spin_on", [encode_call((i, 2)) for i in range(5)], timeout=0.5)
    assert [o.value for o in outcomes[:2]] == [0, 1]
    assert outcomes[2].status == "timeout" and "0.5 s" in outcomes[2].message
    assert outcomes[3:] == [CallOutcome("timeout", message=outcomes[2].message)] * 2  # not run
    assert probe.call("busy", (0,)).value == 0  # a fresh worker answers the next call


def test_the_whole_submissions_deadline_cuts_a_call_short(tmp_path):
    (tmp_path / "probe.py").write_text(PROBE)
    with StudentWorker(tmp_path / "probe.py", Limits(call_timeout=60.0)) as worker:
        assert worker.load().ok  # loaded before the deadline is set: the call alone meets it
        worker.deadline = time.monotonic() + 0.5
        outcome = worker.call("busy", (30,))
        # stopped at the deadline: its own timeout (60 s) would say "did not return within 60 s"
        assert outcome.status == "timeout" and outcome.message == OUT_OF_TIME
        assert "out of time" in worker.call("busy", (0,)).message  # nothing runs after it


def test_a_call_takes_at_most_an_eighth_of_the_submissions_time_left(tmp_path):
    (tmp_path / "probe.py").write_text(PROBE)
    with StudentWorker(tmp_path / "probe.py", Limits(call_timeout=60.0)) as worker:
        assert worker.load().ok  # loaded before the deadline is set: all of it is the call's
        worker.deadline = time.monotonic() + 16  # 2 s a call: less than 60 s, more than 1 s
        outcome = worker.call("busy", (60,))
        granted = re.fullmatch(r"`busy` did not return within (\S+) s, 1/8 of the submission's "
                               r"time left; its other cases were not run", outcome.message)
        assert outcome.status == "timeout" and granted, outcome.message
        assert 1.9 <= float(granted[1]) <= 2  # what the message says it had (2 s, to 2 digits)
        assert outcome.seconds < 60 / 3  # so it had: stopped long before its own timeout


def test_the_call_that_kills_the_worker_is_the_one_named(probe):
    outcomes = probe.call_many("die_on", [encode_call((i, 3)) for i in range(6)])
    assert [o.value for o in outcomes[:3]] == [0, 1, 2]
    assert outcomes[3].status == "crashed" and "exited with code 3" in outcomes[3].message
    assert outcomes[4:] == [STOPPED, STOPPED]


def test_each_reply_is_the_value_at_its_calls_return(probe):
    outcomes = probe.call_many("fill", [encode_call((v,)) for v in (1.0, 2.0, 3.0)])
    assert [o.value.tolist() for o in outcomes] == [[1.0] * 3, [2.0] * 3, [3.0] * 3]


def test_a_reply_with_more_json_than_a_reply_may_hold_is_described(probe):
    calls = [encode_call((0.001,)), encode_call((9,)), encode_call((0.001,))]  # 9 MB: over 8
    outcomes = probe.call_many("text", calls)
    assert outcomes[0].value == outcomes[2].value == "x" * 1048
    assert "not sent: larger than a reply may be" in outcomes[1].value.summary
    assert outcomes[1].value.type_name == "str"


def test_a_long_list_answer_of_more_than_64_kb_crosses_whole(probe):
    assert probe.call("numbers", (200_000,)).value == list(range(200_000))  # ~1.3 MB of JSON


def test_an_array_answer_crosses_with_its_dtype(probe):
    value = probe.call("fill", (np.float32(2.5),)).value
    assert value.dtype == np.float64 and value.tolist() == [2.5] * 3


def test_a_property_check_sends_its_trials_together(catalogue):
    """A property draws its trials first and sends each function's calls as one request
    (StudentCalls.each), as a call check sends its cases: one round trip per function it calls,
    two for one that feeds one function's answers to the next, not one per trial."""
    from grader.checks import grade_exercise
    from grader.checks.kinds import PropertyCheck

    from conftest import SOLUTION

    class Counting:
        def __init__(self, worker):
            self.worker, self.requests = worker, []

        def __getattr__(self, name):
            return getattr(self.worker, name)

        def call_many(self, name, calls, **kwargs):
            self.requests.append((name, len(calls)))
            return self.worker.call_many(name, calls, **kwargs)

        def call(self, name, args=(), kwargs=None, **options):
            self.requests.append((name, 1))
            return self.worker.call(name, args, kwargs, **options)

    checked = 0
    with StudentWorker(SOLUTION) as worker:
        for exercise in catalogue:
            for check in exercise.checks:
                if not isinstance(check, PropertyCheck):
                    continue
                counting = Counting(worker)
                one = type(exercise)(**{**exercise.__dict__, "checks": (check,)})
                assert grade_exercise(one, counting).score == check.points, check.name
                functions = check.names_read()
                assert len(counting.requests) <= len(functions), (check.name, counting.requests)
                assert sum(n for _, n in counting.requests) > len(counting.requests)
                checked += 1
    assert checked >= 5
