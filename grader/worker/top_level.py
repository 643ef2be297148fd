"""One time budget for top-level code: a module's statements and a notebook's cells alike.

Each `run(thunk)` may take `seconds`, and all runs together `total_seconds`; once that is spent,
each run still gets SPENT_SECONDS (defining functions is instant). Code past its limit gets
TopLevelTimeout, and the load goes on with the next statement or cell. Code that swallows it
(`except BaseException: pass` in a loop) gets it again at the next alarm, and from then on at
every line it runs, raised by a trace function: an `except` clause cannot hold it. It runs in
the worker's main thread (signals need it); for C code that never returns to Python, the
grading side's load timeout, which kills the worker, is the limit. A call of the grader's
runs under a clock of its own too (serve.py): `where` says what was running at the first alarm.
"""

from __future__ import annotations

import signal
import sys
import time
import traceback

SPENT_SECONDS = 1.0
REPEAT_SECONDS = 0.05  # the alarm repeats until the code stops


class TopLevelTimeout(BaseException):
    """Raised in top-level code or a call past its limit (`except Exception` lets it through),
    and in place of a function known not to return in time (worker/stand_ins.py: its name)."""


class TopLevelClock:
    def __init__(self, seconds: float, total_seconds: float):
        self.seconds, self.total_seconds = seconds, total_seconds
        self._armed, self._alarms, self._limit, self._previous, self._start = (
            False, 0, 0.0, None, 0.0)
        self._tracing, self._previous_trace = False, None

    def __enter__(self) -> TopLevelClock:
        self._start = time.monotonic()
        self._previous = signal.signal(signal.SIGALRM, self._on_alarm)
        return self

    def __exit__(self, *exc_info) -> None:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, self._previous or signal.SIG_DFL)

    def limit(self) -> float:
        """The next run's limit: `seconds`, less as the total runs out, at least SPENT_SECONDS."""
        left = self.total_seconds - (time.monotonic() - self._start)
        return min(self.seconds, max(left, SPENT_SECONDS))

    def run(self, thunk) -> tuple[BaseException | None, float]:
        """Run `thunk` under the next limit -> (what it raised or None, the limit)."""
        try:
            self.call(thunk)
        except BaseException as exc:  # noqa: BLE001 - sys.exit() in a demo line must not end the load
            return exc, self._limit
        return None, self._limit

    def call(self, thunk):
        """`thunk()` under the next limit: its value, or what it raised (TopLevelTimeout)."""
        self._limit = self.limit()
        self._alarms = 0
        self.where: list = []  # the code objects running at the first alarm, innermost first
        try:
            self._armed = True
            signal.setitimer(signal.ITIMER_REAL, self._limit, REPEAT_SECONDS)
            return thunk()
        finally:  # an alarm due before these lines ran is still this run's timeout
            self._armed = False
            if self._tracing:
                sys.settrace(self._previous_trace)
                self._tracing = False
            signal.setitimer(signal.ITIMER_REAL, 0)

    def _on_alarm(self, signum, frame) -> None:
        if not self._armed:
            return
        self._alarms += 1
        self.where = self.where or [f.f_code for f, _ in traceback.walk_stack(frame)]
        if self._alarms > 1:  # the code caught the last one
            self._trace_from(frame)
        raise TopLevelTimeout(self._limit)

    def _trace_from(self, frame) -> None:
        """Raise TopLevelTimeout at the next line the running code reaches (an `except` clause's
        too). Python unsets a trace function that raised, so every alarm sets it again."""
        if not self._tracing:
            self._previous_trace, self._tracing = sys.gettrace(), True
        sys.settrace(self._trace_call)
        while frame is not None and frame.f_code is not TopLevelClock.call.__code__:
            frame.f_trace = self._trace_line
            frame = frame.f_back

    def _trace_call(self, frame, event, arg):
        return self._trace_line

    def _trace_line(self, frame, event, arg):
        if event == "line" and self._armed:
            raise TopLevelTimeout(self._limit)
        return self._trace_line
