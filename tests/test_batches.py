"""Calls in batches (grader/worker/batches.py): many calls per request, replies a few per message.

What must hold whatever a request holds: each call's outcome is its own (value, output, error),
each call's timeout counts from the end of the one before it, a call that hangs or kills the
worker is the one named, and a request never takes replies meant for another.
"""

from __future__ import annotations

import signal
import time
from pathlib import Path

import numpy as np
import pytest

from grader.worker import ForeignObject, Limits, StudentWorker, batches, protocol
from grader.worker.batches import FLUSH_SECONDS, ReplyBatch

pytestmark = pytest.mark.usefixtures("zygote")  # tests/conftest.py

PROBE = '''
import os, signal, socket, time
import numpy as np

def echo(i):
    print(f"call {i}")
    return i

def spin_on(i, bad):
    """Quick, except on `bad`, where it spins in pure Python forever."""
    while i == bad:
        pass
    return i

def sleep_on(i, bad):
    """Quick, except on `bad`, where it sleeps forever (a system call, not bytecode)."""
    if i == bad:
        time.sleep(3600)
    return i

def die_on(i, bad):
    if i == bad:
        os._exit(3)
    return i

def raise_on(i, bad):
    if i == bad:
        raise ValueError(f"no {i}")
    return i

def busy(seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        pass
    return seconds

_buffer = np.zeros(3)

def fill(i):
    """Returns the same array every time, changed in place: each reply must keep its own value."""
    _buffer[:] = i
    return _buffer

def big(i):
    return np.full(3 * 2**20 // 8, float(i))  # 3 MB

def text(megabytes):
    return "x" * int(megabytes * 2**20)

def take_alarm():
    signal.signal(signal.SIGALRM, signal.SIG_IGN)
    signal.setitimer(signal.ITIMER_REAL, 0)
    return True

def own_alarm_handler():
    """A handler of the submission's own, installed "just in case": no alarm may land in it."""
    def refuse(signum, frame):
        raise TimeoutError("an alarm the submission did not ask for")
    signal.signal(signal.SIGALRM, refuse)
    return True

def own_timeout(i):
    """A timeout decorator's pattern: its own handler and alarm around the work, then both undone."""
    def give_up(signum, frame):
        raise TimeoutError("too slow")
    previous = signal.signal(signal.SIGALRM, give_up)
    signal.setitimer(signal.ITIMER_REAL, 5)
    try:
        return busy(0.03) and i
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)

def forge_first(seq, first):
    """Write a reply to request `seq` claiming to start at call `first`."""
    from grader.worker import protocol
    conn = protocol.Connection(socket.socket(fileno=os.dup(3)), send=protocol.REPLY)
    reply = {"status": "ok", "value": 1, "stdout": "", "seconds": 0.0}
    conn.send({"seq": seq, "first": first, "replies": [reply], "counts": [0]})
    time.sleep(3600)
'''


@pytest.fixture
def probe(tmp_path: Path):
    (tmp_path / "probe.py").write_text(PROBE)
    with StudentWorker(tmp_path / "probe.py", Limits(call_timeout=5.0, load_timeout=5.0)) as worker:
        assert worker.load().ok
        yield worker


def calls(*arguments) -> list[protocol.EncodedCall]:
    return [protocol.encode_call(args) for args in arguments]


def outcomes(pending, count: int) -> list:
    return [pending.outcome(i) for i in range(count)]


def test_each_call_of_a_request_gets_its_own_value_and_output(probe):
    got = outcomes(probe.submit_calls("echo", calls(*[(i,) for i in range(40)])), 40)
    assert [o.value for o in got] == list(range(40))
    assert [o.stdout for o in got] == [f"call {i}\n" for i in range(40)]


def test_a_call_that_raises_fails_alone(probe):
    got = outcomes(probe.submit_calls("raise_on", calls(*[(i, 2) for i in range(5)])), 5)
    assert [o.status for o in got] == ["ok", "ok", "raised", "ok", "ok"]
    assert got[2].error.type == "ValueError" and got[2].error.message == "no 2"
    assert [got[i].value for i in (0, 1, 3, 4)] == [0, 1, 3, 4]


def test_each_call_has_the_whole_timeout_however_long_the_request(probe):
    # five calls of 0.3 s with a timeout of 0.5 s: 1.5 s in all, and no call times out
    got = outcomes(probe.submit_calls("busy", calls(*[(0.3,)] * 5), timeout=0.5), 5)
    assert [o.status for o in got] == ["ok"] * 5


@pytest.mark.parametrize("function", ["spin_on", "sleep_on"])
def test_the_call_that_hangs_is_the_one_that_times_out(probe, function):
    # the quick answers before it were waiting to be sent together; the alarm sends them
    start = time.monotonic()
    got = outcomes(probe.submit_calls(function, calls(*[(i, 3) for i in range(6)]), timeout=0.5), 6)
    assert [o.value for o in got[:3]] == [0, 1, 2] and all(o.status == "ok" for o in got[:3])
    assert got[3].status == "timeout" and got[3].message == "timed out after 0.5 s"
    assert [o.status for o in got[4:]] == ["crashed", "crashed"]
    assert "stopped before it answered" in got[4].message
    assert time.monotonic() - start < 2.0
    assert probe.call("echo", (7,)).value == 7  # a fresh worker answers the next request


def test_the_call_that_kills_the_worker_is_the_one_that_crashed(probe):
    got = outcomes(probe.submit_calls("die_on", calls(*[(i, 2) for i in range(5)])), 5)
    assert [o.status for o in got] == ["ok", "ok", "crashed", "crashed", "crashed"]
    assert "exited with code 3" in got[2].message and "stopped before it answered" in got[3].message


def test_a_request_waits_for_what_the_one_before_still_owes(probe):
    # only the first outcome is read; the next request must not take the rest for its own
    # answers, nor start its clock while the worker still works on them
    first = probe.submit_calls("busy", calls(*[(0.2,)] * 4))
    assert first.outcome(0).status == "ok"
    assert probe.call("echo", (9,), timeout=0.3).value == 9
    assert [first.outcome(i).value for i in range(1, 4)] == [0.2, 0.2, 0.2]


def test_a_value_changed_in_place_after_it_was_returned_keeps_what_it_was(probe):
    got = outcomes(probe.submit_calls("fill", calls((1,), (2,), (3,))), 3)
    assert [o.value.tolist() for o in got] == [[1.0] * 3, [2.0] * 3, [3.0] * 3]


def test_replies_larger_than_one_message_are_split(probe):
    # 30 arrays of 3 MB: more than the 64 MB a reply message may carry
    got = outcomes(probe.submit_calls("big", calls(*[(i,) for i in range(30)])), 30)
    assert all(o.status == "ok" for o in got)
    assert [float(o.value[0]) for o in got] == [float(i) for i in range(30)]
    assert all(o.value.shape == (3 * 2**20 // 8,) for o in got)


def test_a_reply_too_large_for_any_message_is_described_and_the_others_still_answered(probe):
    got = outcomes(probe.submit_calls("text", calls((0.001,), (9,), (0.001,))), 3)  # 9 MB of JSON: over 8
    assert [o.status for o in got] == ["ok"] * 3
    assert got[0].value == got[2].value == "x" * 1048
    assert isinstance(got[1].value, ForeignObject) and "larger than a reply may be" in got[1].value.summary


def test_a_submission_that_takes_the_alarm_over_still_gets_every_answer_and_every_timeout(probe):
    assert probe.call("take_alarm").value is True
    got = outcomes(probe.submit_calls("echo", calls(*[(i,) for i in range(10)])), 10)
    assert [o.value for o in got] == list(range(10))
    got = outcomes(probe.submit_calls("spin_on", calls(*[(i, 2) for i in range(4)]), timeout=0.5), 4)
    assert [o.status for o in got] == ["ok", "ok", "timeout", "crashed"]  # still the right call named


def test_no_alarm_lands_in_a_handler_of_the_submission(probe):
    assert probe.call("own_alarm_handler").value is True
    got = outcomes(probe.submit_calls("busy", calls(*[(0.03,)] * 6)), 6)  # slow enough to be alarmed
    assert [o.status for o in got] == ["ok"] * 6


def test_a_submission_with_its_own_alarm_timeouts_keeps_them(probe):
    got = outcomes(probe.submit_calls("own_timeout", calls(*[(i,) for i in range(6)])), 6)
    assert [o.value for o in got] == list(range(6))
    got = outcomes(probe.submit_calls("spin_on", calls(*[(i, 3) for i in range(5)]), timeout=0.5), 5)
    assert [o.status for o in got] == ["ok", "ok", "ok", "timeout", "crashed"]  # our alarm is back in place


def test_a_reply_for_the_wrong_calls_stops_the_worker(probe):
    probe.call("echo", (0,))
    seq = probe._seq + 1  # the number of the next request
    outcome = probe.call("forge_first", (seq, 5))
    assert outcome.status == "crashed" and "invalid answer" in outcome.message


def test_replies_wait_together_but_not_longer_than_the_flush_interval():
    class Recorder:
        def __init__(self):
            self.messages = []

        def send(self, header, blobs, deadline, sizes):
            self.messages.append(header)

    def reply(i):
        return {"status": "ok", "value": i, "stdout": "", "seconds": 0.0}

    previous = signal.signal(signal.SIGALRM, batches._alarm)  # as in a worker
    try:
        conn = Recorder()
        batch = ReplyBatch(conn, seq=4)
        for i in range(3):  # quick calls: their replies wait for the next ones
            batch.before_call()
            batch.after_call()
            batch.add(reply(i), [], "int")
        assert conn.messages == []
        time.sleep(FLUSH_SECONDS * 1.5)
        batch.before_call()  # old enough: sent before the next call starts
        batch.after_call()
        assert len(conn.messages) == 1
        batch.add(reply(3), [], "int")
        batch.before_call()
        time.sleep(FLUSH_SECONDS * 3)  # a slow call: the alarm sends the waiting reply meanwhile
        assert len(conn.messages) == 2
        batch.after_call()
        batch.add(reply(4), [], "int")
        batch.flush()
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert [m[: m.index(b',"replies"')] for m in conn.messages] == [
        b'{"seq":4,"first":0', b'{"seq":4,"first":3', b'{"seq":4,"first":4']
