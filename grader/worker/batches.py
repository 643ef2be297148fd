"""Calls in batches: many calls of one function in one request, their replies a few per message.

Why: a submission is graded with some 360 calls, most of them microseconds of student code. One
message each way per call cost more CPU than the calls themselves, on both sides of the trust
boundary. A request now carries every case of a check; the worker answers in order and sends its
replies together, yet never holds one back for long (FLUSH_SECONDS, a SIGALRM while a call
runs), so the grading side's clock for each call still starts when the call before it ended, and
a call that hangs is the one named.

Request:  {"op": "calls", "name", "seq", "calls": [[args, kwargs], ...], "counts": [...], "blobs"}
          or {"op": "calls", "name", "seq", "known": [input key, ...], "blobs": []}: inputs the
          worker's zygote was told beforehand (Zygote.remember_inputs), each call a fresh copy
          or {"op": "get", "name", "seq", "blobs": []}
Reply:    {"seq", "first": index of its first reply, "replies": [reply, ...], "counts": [...], "blobs"}

`counts[i]` is how many of the message's blobs belong to item i: each item's JSON numbers its own
arrays from 0, so an EncodedCall's JSON, serialised once, is reused as it is.
"""

from __future__ import annotations

import functools
import json
import os
import signal
import time

from grader.worker import protocol

FLUSH_SECONDS = 0.01  # the worker sends a waiting reply within about twice this
CUT_SHORT_EXIT = 70  # a reply cut short mid-send: the worker's own failure (child.CRASH_EXIT)
_json = json.JSONEncoder(allow_nan=False, separators=(",", ":"))


def input_key(call) -> int:
    """The number this process gives `call` (an EncodedCall) when a zygote is told its inputs
    (Zygote.remember_inputs): a request can then name it instead of carrying its arrays. The
    registry holds the call, so its number is never another's."""
    known = _INPUT_KEYS.get(id(call))
    if known is None or known[0] is not call:
        known = _INPUT_KEYS[id(call)] = (call, len(_INPUT_KEYS))
    return known[1]


_INPUT_KEYS: dict[int, tuple[object, int]] = {}


class CallBatch:
    """EncodedCalls sent as one request; what does not change from one request to the next (all
    but the request's number) is serialised once, so a grader that sends the same cases to
    submission after submission builds each request once."""

    def __init__(self, calls):
        self.calls = tuple(calls)

    def __len__(self) -> int:
        return len(self.calls)

    @functools.cached_property
    def blobs(self) -> list[tuple[bytes]]:
        """Every call's .npy blobs back to back, as one part (`sizes` tells them apart): joined
        once, not at each send."""
        return [(b"".join(part for call in self.calls for blob in call.blobs for part in blob),)]

    @functools.cached_property
    def sizes(self) -> list[int]:
        return [size for call in self.calls for size in call.sizes]

    @functools.cached_property
    def _tail(self) -> bytes:
        return b"".join([
            b',"calls":[', b",".join(call.arguments for call in self.calls), b'],"counts":',
            _json.encode([len(call.blobs) for call in self.calls]).encode(), b',"blobs":',
            _json.encode(self.sizes).encode(), b"}",
        ])

    def header(self, name: str, seq: int) -> bytes:
        """The request's JSON: `name` called on each of the calls, in order."""
        return b'{"op":"calls","name":' + _json.encode(name).encode() + b',"seq":%d' % seq + self._tail

    def known_to(self, known: frozenset[int]) -> bool:
        """Whether a worker holding the inputs numbered `known` holds all of these calls' inputs."""
        for call in self.calls:
            entry = _INPUT_KEYS.get(id(call))
            if entry is None or entry[0] is not call or entry[1] not in known:
                return False
        return True

    def known_header(self, name: str, seq: int) -> bytes:
        """The same request for a worker that holds these inputs already: their numbers, no arrays."""
        return b'{"op":"calls","name":' + _json.encode(name).encode() + b',"seq":%d' % seq + self._known_tail

    @functools.cached_property
    def _known_tail(self) -> bytes:
        return b',"known":' + _json.encode([input_key(call) for call in self.calls]).encode() + b',"blobs":[]}'


def blobs_by_item(blobs: list, counts, items: int) -> list[list]:
    """A batch message's blobs, split among its `items` as the header's `counts` says."""
    if (type(counts) is not list or len(counts) != items or not all(type(n) is int and n >= 0 for n in counts)
            or sum(counts) != len(blobs)):
        raise protocol.ProtocolError("malformed batch (blob counts)")
    split, start = [], 0
    for n in counts:
        split.append(blobs[start : start + n])
        start += n
    return split


class ReplyBatch:
    """The worker's replies to one request, sent together (see the module's docstring).

    They go out when the request is answered, before a reply that would break the bounds of one
    message, and before a call when the oldest has waited FLUSH_SECONDS. While a call runs, a
    one-shot SIGALRM sends them once they are that old (`before_call`): a slow call does not hold
    back the quick ones before it. A submission that has taken SIGALRM over gets no alarm from
    us (it would land in its own handler): its replies go out before each call instead. Only
    student code in a C call that never returns to Python defers them.
    """

    def __init__(self, conn: protocol.Connection, seq):
        self.conn, self.seq, self.first = conn, seq, 0
        self.student_running = False  # set around student code: only then may the alarm flush
        self._armed = False
        self._pid = os.getpid()
        self._clear()

    def before_call(self) -> None:
        """Before each call: send replies that are old (or all, without our alarm); else arm the
        alarm to send them when they will be."""
        global _current
        if self._replies:
            age = time.monotonic() - self._oldest
            if age >= FLUSH_SECONDS or signal.getsignal(signal.SIGALRM) is not _alarm:
                self.flush()
            else:
                _current, self._armed, self.student_running = self, True, True
                signal.setitimer(signal.ITIMER_REAL, FLUSH_SECONDS - age)
        self.student_running = True

    def after_call(self) -> None:
        global _current
        self.student_running = False
        if self._armed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            _current, self._armed = None, False

    def add(self, reply: dict, blobs: list, type_name: str) -> None:
        """Queue one reply; its arrays are copied now (student code may change them in place later)."""
        blobs = [b"".join(blob) for blob in blobs]
        sizes = [len(blob) for blob in blobs]
        data = _json.encode(reply).encode()
        header_bytes, containers, array_bytes = len(data) + 1 + 12 * len(sizes), protocol.containers(data), sum(sizes)
        if not _fits(header_bytes, containers, array_bytes, len(sizes)):
            bounds = protocol.REPLY
            reason = (f"not sent: larger than a reply may be ({bounds.header_bytes // 2**20} MB of JSON, "
                      f"{bounds.containers} lists and dicts)")
            reply = {**reply, "value": {"__foreign__": [type_name, reason[: protocol.MAX_SUMMARY]]}}
            data, blobs, sizes = _json.encode(reply).encode(), [], []
            header_bytes, containers, array_bytes = len(data) + 1, protocol.containers(data), 0
        elif self._replies and not _fits(self._header_bytes + header_bytes, self._containers + containers,
                                         self._array_bytes + array_bytes, len(self._sizes) + len(sizes)):
            self.flush()
        if not self._replies:
            self._oldest = time.monotonic()
        self._replies.append(data)
        self._counts.append(len(blobs))
        self._blobs += blobs
        self._sizes += sizes
        self._header_bytes += header_bytes
        self._array_bytes += array_bytes
        self._containers += containers

    def flush(self) -> None:
        """Send what is queued, if anything."""
        if not self._replies:
            return
        header = b"".join([
            b'{"seq":%d,"first":%d,"replies":[' % (self.seq, self.first), b",".join(self._replies),
            b'],"counts":', _json.encode(self._counts).encode(), b',"blobs":', _json.encode(self._sizes).encode(), b"}",
        ])
        blobs, sizes, count = [(blob,) for blob in self._blobs], self._sizes, len(self._replies)
        self._clear()  # before sending: an alarm during the send finds nothing to send again
        self.first += count
        self.conn.send(header, blobs, None, sizes)

    def _on_alarm(self) -> None:
        """Flush from the signal handler, in the middle of student code: nothing it raises may
        reach that code, and a message cut short mid-send leaves the worker nothing to say."""
        if not self.student_running or os.getpid() != self._pid:
            return
        try:
            self.flush()
        except BaseException:  # noqa: BLE001
            if self._replies:  # failed before sending (MemoryError, RecursionError): they go with the next message
                return
            os._exit(CUT_SHORT_EXIT)

    def _clear(self) -> None:
        self._replies, self._counts, self._blobs, self._sizes = [], [], [], []
        self._header_bytes = self._containers = self._array_bytes = 0
        self._oldest = 0.0


def _fits(header_bytes: int, containers: int, array_bytes: int, arrays: int) -> bool:
    """Whether replies of these sizes (their JSON, and 12 bytes per array for its size) fit in one
    reply message, with room for the message's own fields."""
    bounds = protocol.REPLY
    return (header_bytes + 256 <= bounds.header_bytes and containers + 4 <= bounds.containers
            and array_bytes <= bounds.array_bytes and arrays <= protocol.MAX_ARRAYS)


_current: ReplyBatch | None = None


def install_alarm_handler() -> None:
    """In the worker, before student code runs. A submission that takes SIGALRM over is left
    alone with it (ReplyBatch.before_call); the grading side's deadlines hold whatever it does."""
    signal.signal(signal.SIGALRM, _alarm)


def _alarm(signum, frame) -> None:
    batch = _current
    if batch is not None:
        try:
            batch._on_alarm()
        except BaseException:  # noqa: BLE001 - e.g. RecursionError at the student's depth: not theirs to see
            pass
