"""The grading side of the trust boundary: `StudentWorker` runs a submission in a worker process.

Student code never runs in this process. A worker is forked by the zygote (zygote.py), loads the
submission and answers calls; answers come back as bounded data (channel.py, values.py).
Timeouts are enforced here, with a deadline on the socket. A worker that times out, crashes or
sends nonsense is killed with every process it started, and the next call gets a fresh one.
Time is per function, and a crash is a verdict (`slow`, `crashed`, Limits.retry_timeout and
call_share): docs/architecture.md, "Time".
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import tempfile
import time
import weakref
from dataclasses import replace
from pathlib import Path

from grader.worker import channel, linux, zygote_handle
from grader.worker.capture import read_captured
from grader.worker.limits import DEFAULT_LIMITS, Limits
from grader.worker.outcomes import CallOutcome, LoadProblem, LoadReport, call_outcome, load_report
from grader.worker.processes import kill_group
from grader.worker.values import EncodedCall, ProtocolError, encode_call
from grader.worker.zygote_handle import FORK_AVAILABLE, Zygote, ZygoteError, get_zygote

# a worker forks the process answering calls once the submission loaded (serve.py): after a
# crash or a call its alarm stopped, it forks another instead of loading the submission again
RENEWS = hasattr(os, "fork")
RENEW_SECONDS = 2.0  # for a worker to say it replaced what a call deaf to its alarm left running
SOCKET_BUFFER = 4 * 2**20  # fewer round trips through the kernel for image-sized arrays
STOPPED = CallOutcome("crashed", message="not run: the worker was stopped at an earlier call")
OUT_OF_TIME = "out of time: the grader's time for the whole submission ran out"
DID_NOT_RETURN = "`{name}` did not return within {seconds}; its other cases were not run"
CRASHED = "`{name}` crashed the worker: {ending}; its other cases were not run"


class StudentWorker:
    """A submission running in a worker process, called by name with data.

    Use as a context manager (or call close()). Not thread-safe: one caller at a time.
    """

    def __init__(self, submission: str | os.PathLike, limits: Limits = DEFAULT_LIMITS,
                 zygote: Zygote | None = None, deadline: float | None = None):
        self.submission = Path(submission).absolute()  # the worker runs in another folder
        self.limits = limits
        # time.monotonic() when the whole submission's time ends
        self.deadline = float("inf") if deadline is None else deadline
        self._zygote = zygote
        self._worker: WorkerProcess | None = None
        self._report: LoadReport | None = None  # of the first load, kept for the report
        self._unloadable: str | None = None  # why calls cannot be answered any more
        self._seq = 0  # numbers requests: each reply must carry its request's number
        self.slow: dict[str, str] = {}  # functions that did not return -> in what time ("10 s")
        self.crashed: dict[str, str] = {}  # functions whose call ended the worker -> how
        # slow or crashed functions not run again: their one retry (short, or around stand-ins
        # for a crash, whose cause may be a helper) did not return either
        self.given_up: set[str] = set()

    def __enter__(self) -> StudentWorker:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def load(self) -> LoadReport:
        """Start a worker if needed; the report of the first load (reloads are not reported)."""
        if self._report is None:
            self._ensure_worker()
        return self._report

    def call(self, name: str, args=(), kwargs=None, *, timeout: float | None = None,
             stand_ins=None) -> CallOutcome:
        """Call the submission's `name(*args, **kwargs)` with data -> what it did.

        `timeout` overrides Limits.call_timeout; `stand_ins` as in call_many. values.NotData if
        an argument is not plain data (the grader's bug, never the student's)."""
        return self.call_many(name, [encode_call(args, kwargs)], timeout=timeout,
                              stand_ins=stand_ins)[0]

    def call_many(self, name: str, calls: list[EncodedCall], *, timeout: float | None = None,
                  stand_ins=None) -> list[CallOutcome]:
        """`name` called on each of `calls` (values.encode_call), sent as one request -> an
        outcome per call. Each call's timeout counts from the end of the one before it. After a
        timeout or a crash the worker is stopped, and the calls after it are STOPPED (not run).

        `stand_ins` (optional): an object with `parameters` (student-API name -> [its number of API
        parameters, the defaults of its optional ones]: the names the worker binds to
        stand-ins during these calls, see
        stand_ins.py) and `answer(name, message, blobs, index) -> (header, blobs)`, which
        answers each stand-in's call here, inside the call's time."""
        counts = f"[{','.join([str(len(call.blobs)) for call in calls])}]"
        standing_in = f',"stand_ins":{json.dumps(stand_ins.parameters)}' if stand_ins else ""
        slow = json.dumps([n for n in self.slow if n != name])
        crashed = json.dumps([n for n in self.crashed if n != name])
        header = (f'{{"op":"call","seq":{{seq}},"alarm":{{alarm}},"name":{json.dumps(name)},'
                  f'"calls":[{",".join(call.json for call in calls)}],"counts":{counts}'
                  f'{standing_in},"slow":{slow},"crashed":{crashed},"blobs":')
        blobs = [blob for call in calls for blob in call.blobs]
        return self._request(header, blobs, len(calls), timeout, stand_ins, name)

    def get(self, name: str) -> CallOutcome:
        """The value of a top-level name (e.g. the ANSWERS dict) as data."""
        return self._request({"op": "get", "name": name}, [], 1, None, name=name)[0]

    def use_limits(self, limits: Limits) -> None:
        """Limits for the calls from now on (an exercise's own). A worker started under other
        memory, process, file or output limits is stopped; the next call starts a fresh one."""
        if limits.fixed_at_start() != self.limits.fixed_at_start() and self._worker is not None:
            self._discard_worker()
        self.limits = limits

    def close(self) -> None:
        """Kill and reap the worker, remove its folder. Safe to call twice."""
        if self._worker is not None:
            self._discard_worker()

    # -- internals --

    def _request(self, header: dict | str, blobs: list[bytes], count: int,
                 timeout: float | None, stand_ins=None, name: str = "") -> list[CallOutcome]:
        """Send a request of calls of `name` (a dict, or JSON text with `{seq}` and `{alarm}`),
        collect the `count` replies it asks for, answering its stand-ins' calls on the way."""
        if self._left() <= 0:
            return [CallOutcome("timeout", message=OUT_OF_TIME)] * count
        if name in self.given_up or (name in self.crashed and not stand_ins):
            return [self._known(name)] * count  # fails at once, as its callers do
        if (problem := self._ensure_worker()) is not None:
            return [CallOutcome("unloadable", message=problem)] * count
        timeout = self.limits.call_timeout if timeout is None else timeout
        retry, share = self.limits.retry_timeout, self.limits.call_share
        own = min(timeout, retry) if name in self.slow else timeout
        timeout = min(own, max(self._left() / share, retry))
        within = (f"{timeout:g} s" if timeout == own
                  else f"{timeout:.2g} s, 1/{share} of the submission's time left")
        bound = set(self.slow) - {name}  # the worker makes these fail at once
        worker, outcomes, rest = self._worker, [], STOPPED
        self._seq += 1
        start = time.monotonic()
        try:
            try:
                alarm = repr(timeout - min(1.0, timeout / 5))
                numbered = ({**header, "seq": self._seq} if type(header) is dict
                            else header.replace("{seq}", str(self._seq), 1)
                            .replace("{alarm}", alarm, 1))
                worker.conn.send(numbered, blobs, min(start + timeout, self.deadline))
            except (BrokenPipeError, ConnectionResetError):
                pass  # it died: reading the reply says how
            while len(outcomes) < count:
                deadline = min(start + timeout, self.deadline)
                reply, reply_blobs = worker.conn.receive(deadline)
                if reply.get("op") == "died":  # what ran the call died; the worker is loaded
                    raise CallProcessDied(describe_exit(reply.get("status")))
                if reply.get("seq") != self._seq or reply.get("index") != len(outcomes):
                    raise ProtocolError("a reply to another call")
                if reply.get("op") == "stand_in":
                    if stand_ins is None or reply.get("name") not in stand_ins.parameters:
                        raise ProtocolError("a stand-in call nobody asked for")
                    answer, answer_blobs = stand_ins.answer(reply["name"], reply, reply_blobs,
                                                            len(outcomes))
                    worker.conn.send(answer, answer_blobs, deadline)
                    continue
                slow = str(reply.get("slow", ""))[:99]  # the function its alarm found running
                if slow in self.slow and slow not in bound:  # its retry did not return either
                    self.given_up.add(slow)
                outcomes.append(self._noted(call_outcome(reply, reply_blobs), slow, name, within))
                if slow and slow not in bound:  # its alarm stopped the call: what it left
                    if not RENEWS:  # running goes, as after a timeout (the worker sees to it)
                        self._discard_worker()
                    rest = self._noted(CallOutcome("timeout"), slow, name, within)
                    break
                start = time.monotonic()  # the next call's clock starts now
        except Exception as exc:  # noqa: BLE001 - whatever the worker did is its call's outcome
            outcomes.append(self._failed(exc, start, timeout, name, within, stand_ins))
        except BaseException:  # ^C in the grader mid-call: the reply would answer the next call
            self._discard_worker()
            raise
        return outcomes + [rest] * (count - len(outcomes))

    def _noted(self, outcome: CallOutcome, slow: str, name: str, within: str) -> CallOutcome:
        """`outcome` of a call of `name` that had `within` ("10 s"), remembering `slow` as a
        function that did not return, if it names one, and saying so when the call timed out."""
        if slow and len(self.slow) < 100:
            self.slow.setdefault(slow, within)
        if outcome.status != "timeout":
            return outcome
        seconds = self.slow.get(slow or name, within)
        return replace(outcome, message=DID_NOT_RETURN.format(name=slow or name, seconds=seconds))

    def _known(self, name: str) -> CallOutcome:
        """The outcome of a call of `name`, given up on (or crashed), that is not made."""
        if name in self.slow:
            return CallOutcome("timeout", message=DID_NOT_RETURN.format(
                name=name, seconds=self.slow[name]))
        return CallOutcome("crashed", message=CRASHED.format(name=name, ending=self.crashed[name]))

    def _left(self) -> float:
        """Seconds left of the whole submission's time (inf without a deadline)."""
        return self.deadline - time.monotonic()

    def _failed(self, exc: Exception, start: float, timeout: float, name: str,
                within: str, stand_ins=None) -> CallOutcome:
        """The outcome of a call of `name` whose send or reply failed; the worker is stopped,
        unless only the process that ran the call died. A crash is remembered as a timeout is
        (`crashed`, `given_up`)."""
        if isinstance(exc, CallProcessDied):
            stdout, ending = self._worker.printed(), str(exc)
        elif (isinstance(exc, TimeoutError) and self._left() > 0 and self._worker is not None
              and self._worker.renewed()):
            stdout, ending = self._worker.printed(), ""  # deaf to its alarm: killed alone
        else:
            stdout, ending = self._discard_worker()
        seconds = time.monotonic() - start
        if isinstance(exc, TimeoutError):
            outcome = CallOutcome("timeout", message=OUT_OF_TIME, stdout=stdout, seconds=seconds)
            own = start + timeout <= self.deadline  # blamed, as it was running
            if own and name in self.slow:  # its retry did not return either
                self.given_up.add(name)
            return self._noted(outcome, name, name, within) if own else outcome
        if not isinstance(exc, (channel.ConnectionClosed, OSError, CallProcessDied)):
            ending = f"the worker sent an invalid answer ({str(exc)[:200]}) and was stopped"
        if name in self.crashed or stand_ins:  # its retry around stand-ins crashed as well
            self.given_up.add(name)
        if len(self.crashed) < 100:
            self.crashed.setdefault(name, ending)
        message = CRASHED.format(name=name, ending=ending)
        return CallOutcome("crashed", message=message, stdout=stdout, seconds=seconds)

    def _ensure_worker(self) -> str | None:
        """A live, loaded worker in self._worker, or why there cannot be one."""
        if self._unloadable is None and self._worker is None:
            reloading = self._report is not None
            report = self._start_worker()
            if not reloading:
                self._report = report
            if not report.ok:
                self.close()
                what = "re-loaded after the worker died" if reloading else "loaded"
                self._unloadable = f"the submission could not be {what}: " + "; ".join(
                    f"{problem.where}: {problem.message}" for problem in report.problems
                )
        return self._unloadable

    def _start_worker(self) -> LoadReport:
        # Top-level code that was stopped at the first load is not run again by later workers.
        skip = self._report.stopped if self._report is not None else ()
        self._worker = WorkerProcess.start(self.submission, self.limits, self._zygote, skip)
        load_deadline = min(time.monotonic() + self.limits.load_timeout, self.deadline)
        try:
            header, _ = self._worker.conn.receive(load_deadline)
            return load_report(header)
        except TimeoutError:
            message = f"top-level code ran longer than {self.limits.load_timeout:g} s"
            if self._left() <= 0:
                message = OUT_OF_TIME + " while loading the submission"
            stdout, _ = self._discard_worker()
        except Exception as exc:  # noqa: BLE001 - a worker that died or sent nonsense
            stdout, message = self._discard_worker()
            if isinstance(exc, (channel.ConnectionClosed, OSError)):
                message += " while loading the submission"
            else:
                message = f"the worker sent an invalid load report ({str(exc)[:200]})"
        except BaseException:  # ^C in the grader while loading
            self._discard_worker()
            raise
        return LoadReport(False, {}, (LoadProblem(self.submission.name, message),), stdout, 0.0)

    def _discard_worker(self) -> tuple[str, str]:
        """Kill and reap the current worker -> (what it printed, how it ended)."""
        worker, self._worker = self._worker, None
        return worker.stop()


class CallProcessDied(Exception):
    """The worker's process that ran the call died (how: the message); the worker forks another."""


class WorkerProcess:
    """One worker as the grading side holds it: pid, connection, output file, working folder."""

    def __init__(self, pid: int, conn: channel.Connection, output, workdir: str, reap, limit: int,
                 renew=None):
        self.pid, self.conn, self.output, self.limit = pid, conn, output, limit
        self._renew = renew  # the zygote's: kill what the worker runs, not the worker
        # Also stops a worker whose StudentWorker was dropped without close(); stop() runs it now.
        self._finalizer = weakref.finalize(self, _stop_worker, pid, conn, output, workdir, reap,
                                           limit)

    @classmethod
    def start(cls, submission: Path, limits: Limits, zygote: Zygote | None,
              skip: tuple[str, ...] = ()) -> WorkerProcess:
        linux.not_dumpable()  # before student code runs anywhere: no worker may ptrace us
        workdir = tempfile.mkdtemp(prefix="vitgrade-worker-")
        output = tempfile.TemporaryFile()  # noqa: SIM115 - lives as long as the worker
        ours, theirs = socket.socketpair()
        for sock in (ours, theirs):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SOCKET_BUFFER)
        request = {"submission": str(submission), "workdir": workdir,
                   "memory_mb": limits.memory_mb, "max_output_bytes": limits.max_output_bytes,
                   "max_processes": limits.max_processes, "file_mb": limits.file_mb,
                   "load_budget": limits.load_budget, "skip": list(skip), "hide": list(limits.hide),
                   "setup": limits.setup}
        try:
            fds = [theirs.fileno(), output.fileno()]
            if FORK_AVAILABLE:
                pid, reap, renew = _fork_from_zygote(zygote, request, fds)
            else:
                (pid, reap), renew = _spawn(request, fds), None
        except BaseException:
            ours.close()
            output.close()
            shutil.rmtree(workdir, ignore_errors=True)
            raise
        finally:
            theirs.close()
        conn = channel.Connection(ours, send=channel.REQUEST, receive=channel.REPLY)
        return cls(pid, conn, output, workdir, reap, limits.max_output_bytes, renew)

    def printed(self) -> str:
        """What the worker's last call printed (read here, as after its death)."""
        try:
            return read_captured(self.output.fileno(), self.limit)
        except (OSError, ValueError):
            return ""

    def renewed(self) -> bool:
        """After a call deaf to its alarm: whether the process running it was killed (by the
        zygote) and the worker said so, ready to fork another; else it is to be stopped."""
        if RENEWS and self._renew is not None:
            try:
                self._renew(self.pid)
                deadline = time.monotonic() + RENEW_SECONDS
                while self.conn.receive(deadline)[0].get("op") != "died":
                    pass  # a reply or stand-in request sent before it was killed
                return True
            except Exception:  # noqa: BLE001 - a worker that does not answer is stopped
                pass
        return False

    def stop(self) -> tuple[str, str]:
        """Kill the worker and all it started, reap it, clean up -> (last output, how it ended)."""
        return self._finalizer()


def _stop_worker(pid, conn, output, workdir, reap, limit) -> tuple[str, str]:
    try:  # reap kills it and everything it started
        ending = describe_exit(reap(pid))
    except (ZygoteError, OSError, ValueError):
        ending = "the worker process ended (its exit status is unknown)"
    try:
        stdout = read_captured(output.fileno(), limit)
    except OSError:
        stdout = ""
    conn.close()
    output.close()
    shutil.rmtree(workdir, ignore_errors=True)
    return stdout, ending


def describe_exit(status: int) -> str:
    """'the worker process died (signal 11: SIGSEGV)' / 'the worker process exited with code 3'."""
    code = os.waitstatus_to_exitcode(status)
    if code >= 0:
        return f"the worker process exited with code {code}"
    try:
        name = signal.Signals(-code).name
    except ValueError:
        name = "unknown signal"
    return f"the worker process died (signal {-code}: {name})"


def _fork_from_zygote(zygote: Zygote | None, request: dict, fds: list[int]):
    """(pid, reap, renew) of a worker forked by `zygote`, else by the shared one (restarted once
    if it died)."""
    zygote = zygote or get_zygote()
    try:
        return zygote.fork_worker(request, fds), zygote.reap, zygote.renew
    except ZygoteError:
        if zygote.alive:
            raise
        zygote = get_zygote()
        return zygote.fork_worker(request, fds), zygote.reap, zygote.renew


def _spawn(request: dict, fds: list[int]):
    """The fallback without fork: a fresh interpreter per worker (slow, but the same sandbox)."""
    process = zygote_handle.start_module(
        ["grader.worker.serve", str(fds[0]), str(fds[1]), json.dumps(request)], fds)

    def reap(pid: int) -> int:  # kill its group, then Popen's return code back to a wait status
        kill_group(pid)
        code = process.wait()
        return -code if code < 0 else code << 8

    return process.pid, reap
