"""The grading side of the trust boundary: `StudentWorker` runs a submission in a worker process.

Student code never runs in this process. A worker is forked by the zygote (zygote.py), loads the
submission and answers calls; answers come back as data (protocol.py). Timeouts are enforced
here, with a deadline on the socket. A worker that times out or crashes is killed with every
process it started and reaped (zygote.py), and the next call transparently gets a fresh one.
The limits a worker runs under are `Limits`; docs/security.md says what they stop.
"""

from __future__ import annotations

import atexit
import json
import logging
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import weakref
from dataclasses import dataclass
from pathlib import Path

from grader.worker import batches, protocol
from grader.worker.protocol import ForeignObject

__all__ = [
    "CallOutcome",
    "ForeignObject",
    "Limits",
    "LoadProblem",
    "LoadReport",
    "StudentError",
    "StudentWorker",
    "Zygote",
    "ZygoteError",
    "get_zygote",
    "prestart_zygote",
]

log = logging.getLogger(__name__)

FORK_AVAILABLE = hasattr(os, "fork")  # else each worker is spawned as `python -m grader.worker.child`
SANDBOX_VARIABLE = "VITGRADE_SANDBOX"  # a command prefix for the zygote: an OS sandbox around every worker
READY_TIMEOUT = 60.0  # seconds for the zygote to import numpy (a cold laptop can be slow)
CONTROL_TIMEOUT = 30.0  # seconds for the zygote to answer a fork or reap request
SOCKET_BUFFER = 4 * 2**20  # fewer round trips through the kernel for image-sized arrays

# What the zygote (and so every worker) inherits of the grader's environment: enough to find
# Python's packages the way the grader did, nothing that could carry a secret.
_INHERITED_ENV = (
    "PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "PYTHONPATH", "PYTHONHOME", "PYTHONNOUSERSITE",
    "VIRTUAL_ENV", "CONDA_PREFIX", "LD_LIBRARY_PATH", "TMPDIR", "SYSTEMROOT",
)  # fmt: skip
_WORKER_ENV = {
    "OMP_NUM_THREADS": "1",  # numpy's BLAS must not start threads in a process that forks
    "OPENBLAS_NUM_THREADS": "1",
    "MKL_NUM_THREADS": "1",
    "MPLBACKEND": "Agg",
}


@dataclass(frozen=True)
class Limits:
    """What a worker may use. All but `call_timeout` are fixed when a worker starts: a call under
    other limits (`StudentWorker.use_limits`) gets a fresh worker."""

    call_timeout: float = 10.0  # seconds per call, wall clock; then the worker is killed
    # Seconds for loading the submission. Top-level code is stopped after a third of it (a
    # statement, a notebook cell), two thirds in all, and the rest still runs; past all of it
    # the worker is killed and the submission is unloadable.
    load_timeout: float = 30.0
    memory_mb: int = 4096  # address space of the worker (RLIMIT_AS): past it, MemoryError
    max_output_bytes: int = 64_000  # captured stdout+stderr kept per call/load
    max_processes: int = 64  # processes and threads at once (RLIMIT_NPROC): past it, fork fails
    file_mb: int = 64  # the largest file the worker may write, its output included (RLIMIT_FSIZE)

    def fixed_at_start(self) -> tuple:
        """The limits a running worker cannot change."""
        return self.load_timeout, self.memory_mb, self.max_output_bytes, self.max_processes, self.file_mb


@dataclass(frozen=True)
class StudentError:
    """An exception raised inside student code, with only the student's own frames."""

    type: str  # "ValueError"
    message: str
    traceback: str  # '  File "vit_exercises.py", line 12, in patchify\n    return x.reshape(...)\n'
    where: str | None  # "vit_exercises.py:12" of the innermost student frame, or None
    limit: str | None = None  # "the grader limits the memory of your code to 4096 MB" when a limit caused it


@dataclass(frozen=True)
class CallOutcome:
    status: str  # "ok" | "raised" | "timeout" | "crashed" | "missing" | "not_callable" | "unloadable"
    value: object = None  # decoded data when "ok"
    error: StudentError | None = None  # when "raised"
    message: str = ""  # human text for timeout/crashed/missing/...
    stdout: str = ""  # what the call printed (truncated)
    seconds: float = 0.0


@dataclass(frozen=True)
class LoadProblem:
    where: str  # "vit_exercises.py:12" or "cell 7" or the file name
    message: str  # "SyntaxError: invalid syntax", "top-level code ran longer than 30 s"


@dataclass(frozen=True)
class LoadReport:
    ok: bool  # False when nothing could be loaded (missing file, not .py/.ipynb, syntax error)
    names: dict[str, str]  # top-level name -> kind: "function", "class", "module", "dict", ...
    problems: tuple[LoadProblem, ...]
    stdout: str
    seconds: float


class ZygoteError(RuntimeError):
    """The zygote could not start or stopped answering: the grader's environment, not the student."""


class StudentWorker:
    """A submission running in a worker process, called by name with data.

    Use as a context manager (or call close()). Not thread-safe: one caller at a time.
    """

    def __init__(self, submission: str | os.PathLike, limits: Limits = Limits(), zygote: Zygote | None = None):
        self.submission = Path(submission).absolute()  # the worker runs in another directory
        self.limits = limits
        self._zygote = zygote
        self._worker: _WorkerProcess | None = None
        self._report: LoadReport | None = None  # of the first load, kept for the report
        self._unloadable: str | None = None  # why calls cannot be answered any more
        self._seq = 0  # numbers requests: a reply must carry its request's number
        self._answered_at = 0.0  # time.monotonic() of the last reply
        self._open: PendingCalls | None = None  # the request whose outcomes are not all collected

    def __enter__(self) -> StudentWorker:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def load(self) -> LoadReport:
        """Start a worker if needed; the report of the first load (later reloads are not reported)."""
        if self._report is None:
            self._ensure_worker()
        return self._report

    def call(
        self, name: str, args=(), kwargs=None, *, timeout: float | None = None, label: str | None = None
    ) -> CallOutcome:
        """Call the submission's `name(*args, **kwargs)` with data; what it did, as a CallOutcome.

        `timeout` overrides Limits.call_timeout. `label` ("patchify(image 224x224x3, P=16)") names
        the call in this module's debug log only: messages stay free of inputs, which a hidden
        case must not show. Raises protocol.NotData if an argument is not plain data (the grader's
        bug, never the student's).
        """
        return self.submit_calls(name, [protocol.encode_call(args, kwargs)], timeout=timeout, label=label).outcome(0)

    def submit_calls(
        self, name: str, calls: batches.CallBatch | list[protocol.EncodedCall], *, timeout: float | None = None,
        label: str | None = None,
    ) -> PendingCalls:
        """Send `name` called on each of `calls` (protocol.encode_call; a CallBatch to send the same
        ones again cheaply) as one request, now; collect the outcomes in order with `.outcome(i)`.

        The worker answers several calls per message (batches.py), which is what makes a check of
        twenty cases cheap. Each call's timeout counts from when the one before it ended. A later
        request first waits for whatever this one still owes: replies never mix.
        """
        timeout = self.limits.call_timeout if timeout is None else timeout
        calls = calls if isinstance(calls, batches.CallBatch) else batches.CallBatch(calls)
        return PendingCalls(self, (name, calls), len(calls), timeout, label or name)

    def get(self, name: str) -> CallOutcome:
        """The value of a top-level name (e.g. the ANSWERS dict) as data."""
        return PendingCalls(self, {"op": "get", "name": name}, 1, self.limits.call_timeout, name).outcome(0)

    def use_limits(self, limits: Limits) -> None:
        """Limits for the calls from now on (an exercise's own). A running worker started under
        other memory, process, file or output limits is stopped; the next call starts a fresh one."""
        if limits.fixed_at_start() != self.limits.fixed_at_start() and self._worker is not None:
            self._discard_worker()
        self.limits = limits

    def close(self) -> None:
        """Kill and reap the worker, remove its directory. Safe to call twice."""
        if self._worker is not None:
            self._worker.stop()
            self._worker = None

    # -- internals --

    def _send(self, request: dict | tuple, timeout: float, label: str):
        """Send `request` ({"op": "get", ...}, or (name, CallBatch)) -> (worker, seq, start) to
        collect with `_collect`, or a CallOutcome now."""
        if (problem := self._ensure_worker()) is not None:
            return CallOutcome("unloadable", message=problem)
        worker = self._worker
        start = time.monotonic()
        self._seq += 1
        if type(request) is tuple:
            name, calls = request
            if calls.known_to(worker.known):  # it holds these inputs: name them, send no array
                header, blobs, sizes = calls.known_header(name, self._seq), [], []
            else:
                header, blobs, sizes = calls.header(name, self._seq), calls.blobs, calls.sizes
        else:
            header, blobs, sizes = {**request, "seq": self._seq}, [], None
        try:
            worker.conn.send(header, blobs, start + timeout, sizes)
        except (BrokenPipeError, ConnectionResetError):
            pass  # it died: collecting the reply says how
        except BaseException as exc:
            return self._failed(exc, start, timeout, label)
        return worker, self._seq, start

    def _collect(self, sent, first: int, count: int, timeout: float, label: str) -> list[CallOutcome]:
        """The outcomes in the worker's next reply to `sent`, from call `first` of `count` on; a timeout
        or a crash ends the request: that call's outcome says which, the later ones were not run."""
        worker, seq, start = sent
        if worker is not self._worker:  # stopped meanwhile (closed, or a limit change)
            return [_STOPPED] * (count - first)
        start = max(start, self._answered_at)  # a call's clock starts when the one before it ended
        try:
            header, reply_blobs = self._reply(worker, seq, start + timeout)
            self._answered_at = time.monotonic()
            return _call_outcomes(header, reply_blobs, first, count)
        except BaseException as exc:
            return [self._failed(exc, start, timeout, label)] + [_STOPPED] * (count - first - 1)

    def _failed(self, exc: BaseException, start: float, timeout: float, label: str) -> CallOutcome:
        """The outcome of a call whose send or reply failed; the worker is stopped."""
        if isinstance(exc, TimeoutError):
            stdout, _ = self._discard_worker()
            log.debug("%s: %s timed out after %g s", self.submission.name, label, timeout)
            message = f"timed out after {timeout:g} s"
            return CallOutcome("timeout", message=message, stdout=stdout, seconds=time.monotonic() - start)
        if isinstance(exc, (protocol.ProtocolError, OSError)):  # died mid-call, or answered nonsense
            stdout, death = self._discard_worker()
            if isinstance(exc, protocol.ProtocolError) and not isinstance(exc, protocol.ConnectionClosed):
                death = f"the worker sent an invalid answer ({exc}) and was stopped"
            log.debug("%s: %s crashed: %s", self.submission.name, label, death)
            return CallOutcome("crashed", message=death, stdout=stdout, seconds=time.monotonic() - start)
        self._discard_worker()  # ^C in the grader mid-call: the reply would answer the next call
        raise exc

    @staticmethod
    def _reply(worker: _WorkerProcess, seq: int, deadline: float):
        """The reply to request `seq`. Replies to earlier requests are skipped: a process the
        student forked may still send one (the worker's own never does)."""
        while True:
            header, blobs = worker.conn.receive(deadline)
            number = header.get("seq")
            if type(number) is int and 0 < number < seq:
                continue
            if number != seq:
                raise protocol.ProtocolError(f"a reply numbered {str(number)[:20]} to request {seq}")
            return header, blobs

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
        self._worker = _WorkerProcess.start(self.submission, self.limits, self._zygote)
        deadline = time.monotonic() + self.limits.load_timeout
        try:
            header, _ = self._worker.conn.receive(deadline)
            return _load_report(header)
        except TimeoutError:
            message = f"top-level code ran longer than {self.limits.load_timeout:g} s"
            stdout, _ = self._discard_worker()
        except (protocol.ProtocolError, OSError) as exc:
            stdout, message = self._discard_worker()
            if isinstance(exc, protocol.ProtocolError) and not isinstance(exc, protocol.ConnectionClosed):
                message = f"the worker sent an invalid load report ({exc})"
            else:
                message += " while loading the submission"
        except BaseException:  # ^C in the grader while loading
            self._discard_worker()
            raise
        return LoadReport(False, {}, (LoadProblem(self.submission.name, message),), stdout, 0.0)

    def _discard_worker(self) -> tuple[str, str]:
        """Kill and reap the current worker -> (what it printed, how it ended)."""
        worker, self._worker = self._worker, None
        return worker.stop()


class PendingCalls:
    """A request sent to the worker whose outcomes are collected later (StudentWorker.submit_calls).

    A worker that dies mid-request takes with it the answers it had not sent yet, so which call
    killed it is unknown: the calls left are run again on a fresh worker, one per request, and
    the one that crashes it is named (the others get their answers).
    """

    def __init__(self, worker: StudentWorker, request: dict | tuple, count: int, timeout: float, label: str):
        self._worker, self._request, self._count, self._timeout, self._label = worker, request, count, timeout, label
        if worker._open is not None:
            worker._open.settle()  # the worker answers in order: what it still owes comes first
        self._sent = worker._send(request, timeout, label)
        self._outcomes: list[CallOutcome] = []
        if isinstance(self._sent, CallOutcome):
            rest = self._sent if self._sent.status == "unloadable" else _STOPPED
            self._outcomes = [self._sent] + [rest] * (count - 1)
        else:
            worker._open = self

    def outcome(self, index: int) -> CallOutcome:
        """The outcome of call `index`, waiting for it (until its deadline) if need be."""
        while len(self._outcomes) <= index:
            got = self._worker._collect(self._sent, len(self._outcomes), self._count, self._timeout, self._label)
            if len(got) > 1 and got[0].status == "crashed" and got[0] is not _STOPPED:
                got = self._one_at_a_time(len(self._outcomes))
            self._outcomes += got
        if len(self._outcomes) == self._count and self._worker._open is self:
            self._worker._open = None
        return self._outcomes[index]

    def settle(self) -> None:
        """Wait for every outcome."""
        self.outcome(self._count - 1)

    def _one_at_a_time(self, first: int) -> list[CallOutcome]:
        """Outcomes of calls `first`... run again, one per request, up to the one that fails to answer."""
        if self._worker._open is self:
            self._worker._open = None
        name, calls = self._request
        outcomes = []
        for call in calls.calls[first:]:
            pending = self._worker.submit_calls(name, [call], timeout=self._timeout, label=self._label)
            outcomes.append(pending.outcome(0))
            if outcomes[-1].status in ("timeout", "crashed", "unloadable"):
                break
        return outcomes + [_STOPPED] * (len(calls) - first - len(outcomes))


_STOPPED = CallOutcome("crashed", message="the worker was stopped before it answered")


class _WorkerProcess:
    """One worker as the grading side holds it: pid, socket, output file and working directory."""

    def __init__(self, pid: int, conn: protocol.Connection, output, workdir: str, reap, limit: int):
        self.pid, self.conn = pid, conn
        self.known: frozenset[int] = frozenset()  # keys of the inputs it holds (Zygote.remember_inputs)
        # Also stops a worker whose StudentWorker was dropped without close(); stop() runs it now.
        self._finalizer = weakref.finalize(self, _stop_worker, pid, conn, output, workdir, reap, limit)

    @classmethod
    def start(cls, submission: Path, limits: Limits, zygote: Zygote | None) -> _WorkerProcess:
        protect_grading_process()
        workdir = tempfile.mkdtemp(prefix="vitgrade-worker-")
        output = tempfile.TemporaryFile()  # noqa: SIM115 - lives as long as the worker
        ours, theirs = socket.socketpair()
        for sock in (ours, theirs):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SOCKET_BUFFER)
        request = {
            "submission": str(submission),
            "workdir": workdir,
            "memory_mb": limits.memory_mb,
            "max_output_bytes": limits.max_output_bytes,
            "max_processes": limits.max_processes,
            "file_mb": limits.file_mb,
            "statement_seconds": limits.load_timeout / 3,
            "top_level_seconds": limits.load_timeout * 2 / 3,
        }
        try:
            fds = [theirs.fileno(), output.fileno()]
            if FORK_AVAILABLE:
                pid, reap, known = _fork_from_zygote(zygote, request, fds)
            else:
                (pid, reap), known = _spawn(request, fds), frozenset()
        except BaseException:
            ours.close()
            output.close()
            shutil.rmtree(workdir, ignore_errors=True)
            raise
        finally:
            theirs.close()
        conn = protocol.Connection(ours, send=protocol.REQUEST, receive=protocol.REPLY)
        worker = cls(pid, conn, output, workdir, reap, limits.max_output_bytes)
        worker.known = known
        return worker

    def stop(self) -> tuple[str, str]:
        """Kill the worker's group, reap it, clean up -> (its last output, how it ended)."""
        return self._finalizer()


def _stop_worker(pid, conn, output, workdir, reap, limit) -> tuple[str, str]:
    try:  # reap kills it and everything it started (the zygote's pids may be of another pid namespace)
        ending = describe_exit(reap(pid))
    except (ZygoteError, OSError, ValueError):
        ending = "the worker process ended (its exit status is unknown)"
    try:
        stdout = protocol.read_captured(output.fileno(), limit)
    except OSError:
        stdout = ""
    conn.close()
    output.close()
    shutil.rmtree(workdir, ignore_errors=True)
    return stdout, ending


def protect_grading_process() -> None:
    """Make this process non-dumpable before student code runs anywhere: a process of the same
    user (a worker, when the grader is not root) can then neither ptrace it nor read its memory,
    environment or open files through /proc. Linux only; elsewhere a no-op."""
    global _protected
    if not _protected and sys.platform.startswith("linux"):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_DUMPABLE, 0, 0, 0, 0)
    _protected = True


_PR_SET_DUMPABLE = 4
_protected = False


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
    """(pid, reap, the keys of the inputs the new worker holds)."""
    zygote = zygote or get_zygote()
    try:
        known = zygote.known  # read before the fork: what it knew then, the worker has
        return zygote.fork_worker(request, fds), zygote.reap, known
    except ZygoteError:
        if zygote.alive:
            raise
        zygote = get_zygote()  # the shared zygote died (it should not): one fresh start
        known = zygote.known
        return zygote.fork_worker(request, fds), zygote.reap, known


def _data_file(parts):
    """A file holding `parts` back to back, at offset 0, to hand to another process: in memory
    where Linux allows (memfd), else a temporary file."""
    handle = (open(os.memfd_create("vitgrade-inputs", os.MFD_CLOEXEC), "w+b")  # noqa: SIM115
              if hasattr(os, "memfd_create") else tempfile.TemporaryFile())
    for part in parts:
        handle.write(part)
    handle.flush()
    handle.seek(0)
    return handle


def _spawn(request: dict, fds: list[int]):
    """The fallback without fork: a fresh interpreter per worker (slow, but the same sandbox)."""
    process = subprocess.Popen(
        [sys.executable, "-m", "grader.worker.child", str(fds[0]), str(fds[1]), json.dumps(request)],
        pass_fds=fds, env=_zygote_environment(), cwd=_package_root(), stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
    )  # fmt: skip

    def reap(pid: int) -> int:  # kill its group, then Popen's return code, back to a wait status
        for kill in (os.killpg, os.kill):
            try:
                kill(pid, signal.SIGKILL)
            except OSError:
                pass
        code = process.wait()
        return -code if code < 0 else code << 8

    return process.pid, reap


class Zygote:
    """Handle on one zygote process (see zygote.py). Thread-safe; start-up does not wait for it."""

    def __init__(self):
        self._started = time.monotonic()
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            self.process = subprocess.Popen(
                [*sandbox_command(), sys.executable, "-m", "grader.worker.zygote", str(theirs.fileno())],
                pass_fds=[theirs.fileno()], env=_zygote_environment(), cwd=_package_root(),
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            )  # fmt: skip
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        self._control = ours
        self._lock = threading.Lock()
        self._owner = os.getpid()
        self.ready_seconds: float | None = None  # from start to ready, once known
        self.known: frozenset[int] = frozenset()  # the inputs it holds (remember_inputs), by key

    @property
    def pid(self) -> int:
        return self.process.pid

    @property
    def alive(self) -> bool:
        return self.process.poll() is None and self._control.fileno() != -1

    def wait_ready(self, timeout: float = READY_TIMEOUT) -> float:
        """Block until the zygote has imported numpy; seconds it took from its start."""
        with self._lock:
            self._wait_ready(timeout)
        return self.ready_seconds

    def fork_worker(self, request: dict, fds: list[int]) -> int:
        """A new worker for `request` (see zygote.py); its socket and output file go along as fds."""
        return self._ask({"op": "fork", **request}, fds)["pid"]

    def reap(self, pid: int) -> int:
        """Kill the worker's group, wait for it; its wait status."""
        return self._ask({"op": "reap", "pid": pid})["status"]

    def remember_inputs(self, calls) -> int:
        """Tell the zygote the inputs of `calls` (EncodedCalls a grader sends to submission after
        submission): it decodes them once, each worker forked afterwards starts with them, and a
        request to it names them (batches.input_key) instead of carrying their arrays. Inputs
        only: an expected value never leaves the grading process. How many inputs it now holds."""
        distinct = {id(call): call for call in calls}.values()
        new = [call for call in distinct if batches.input_key(call) not in self.known]
        start = 0
        while start < len(new):
            chunk, size = [], 0
            for call in new[start:]:  # messages of at most 512 KB of JSON and 1000 calls
                if chunk and (size + len(call.arguments) > 2**19 or len(chunk) == 1000):
                    break
                chunk.append(call)
                size += len(call.arguments)
            with _data_file(part for call in chunk for blob in call.blobs for part in blob) as data:
                entries = [[batches.input_key(call), call.args, call.kwargs, call.sizes] for call in chunk]
                self._ask({"op": "remember_inputs", "calls": entries}, [data.fileno()])
            self.known = self.known | {batches.input_key(call) for call in chunk}
            start += len(chunk)
        return len(self.known)

    def loaded_modules(self) -> list[str]:
        """Names of the modules the zygote has imported (to check it holds nothing it should not)."""
        return self._ask({"op": "modules"})["modules"]

    def close(self) -> None:
        """Hang up: the zygote kills its workers and exits. Safe to call twice."""
        with self._lock:
            self._control.close()
        if os.getpid() == self._owner:
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def __enter__(self) -> Zygote:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    def _ask(self, message: dict, fds: list[int] = ()) -> dict:
        with self._lock:
            self._wait_ready(READY_TIMEOUT)
            try:
                socket.send_fds(self._control, [json.dumps(message).encode()], list(fds))
                reply = self._receive(CONTROL_TIMEOUT)
            except OSError as exc:
                self._control.close()  # a late reply would answer the next request: give up on it
                raise ZygoteError(f"the zygote stopped answering ({exc})") from None
        if "error" in reply:
            raise ZygoteError(f"the zygote refused {message['op']!r}: {reply['error']}")
        return reply

    def _wait_ready(self, timeout: float) -> None:
        if self.ready_seconds is not None:
            return
        try:
            reply = self._receive(timeout)
        except OSError as exc:
            self._control.close()
            raise ZygoteError(f"the zygote did not start ({exc})") from None
        if reply.get("op") != "ready":
            raise ZygoteError(f"the zygote said {reply!r} instead of ready")
        self.ready_seconds = time.monotonic() - self._started

    def _receive(self, timeout: float) -> dict:
        self._control.settimeout(timeout)
        data = self._control.recv(2**20)
        if not data:
            code = self.process.poll()
            raise ZygoteError(f"the zygote exited (code {code}); its error, if any, is on the grader's stderr")
        return json.loads(data)


_shared: Zygote | None = None
_shared_lock = threading.Lock()


def prestart_zygote() -> Zygote | None:
    """Start the process-wide zygote now, without waiting for it: numpy imports meanwhile."""
    return get_zygote() if FORK_AVAILABLE else None


def get_zygote() -> Zygote:
    """The process-wide zygote, started if there is none (or it died, or we are a forked copy)."""
    global _shared
    with _shared_lock:
        if _shared is None or _shared._owner != os.getpid() or not _shared.alive:
            if _shared is None:
                atexit.register(_close_shared)
            _shared = Zygote()
        return _shared


def _close_shared() -> None:
    if _shared is not None and _shared._owner == os.getpid():
        _shared.close()


def sandbox_command() -> list[str]:
    """The command the zygote (so every worker) runs inside: $VITGRADE_SANDBOX, split as a shell
    would ("bwrap --unshare-all ... --"), or nothing. See docs/security.md for one that works."""
    return shlex.split(os.environ.get(SANDBOX_VARIABLE, ""))


def _zygote_environment() -> dict[str, str]:
    env = {name: os.environ[name] for name in _INHERITED_ENV if name in os.environ}
    return {**env, **_WORKER_ENV}


def _package_root() -> str:
    """The folder holding the `grader` package: `-m` then finds the same grader as this process."""
    return str(Path(__file__).resolve().parents[2])


def _call_outcomes(header: dict, blobs, first: int, count: int) -> list[CallOutcome]:
    """The CallOutcomes of a reply message (batches.py) that must start at call `first` of `count`."""
    replies = header.get("replies")
    if (header.get("first") != first or type(header.get("first")) is not int or type(replies) is not list
            or not replies or first + len(replies) > count or not all(type(r) is dict for r in replies)):
        raise protocol.ProtocolError("malformed reply (not the calls asked for)")
    return [_call_outcome(reply, reply_blobs)
            for reply, reply_blobs in zip(replies, batches.blobs_by_item(blobs, header.get("counts"), len(replies)))]


def _call_outcome(header: dict, blobs) -> CallOutcome:
    """A CallOutcome from the worker's reply; anything malformed raises ProtocolError."""
    status = header.get("status")
    stdout, seconds = _text(header.get("stdout", "")), _seconds(header.get("seconds", 0.0))
    if status == "ok":
        value = protocol.Decoder(blobs, foreign_ok=True).decode(header.get("value"))
        return CallOutcome("ok", value=value, stdout=stdout, seconds=seconds)
    if status == "raised":
        error = header.get("error")
        if type(error) is not dict:
            raise protocol.ProtocolError("malformed reply (error)")
        where = error.get("where")
        limit = error.get("limit")
        student_error = StudentError(
            type=_text(error.get("type")),
            message=_text(error.get("message")),
            traceback=_text(error.get("traceback")),
            where=None if where is None else _text(where),
            limit=None if limit is None else _text(limit, 200),
        )
        return CallOutcome("raised", error=student_error, stdout=stdout, seconds=seconds)
    if status in ("missing", "not_callable"):
        return CallOutcome(status, message=_text(header.get("message")))
    raise protocol.ProtocolError(f"malformed reply (status {str(status)[:40]!r})")


def _load_report(header: dict) -> LoadReport:
    names, problems = header.get("names"), header.get("problems")
    if header.get("op") != "loaded" or type(names) is not dict or type(problems) is not list:
        raise protocol.ProtocolError("malformed load report")
    return LoadReport(
        ok=header.get("ok") is True,
        names={_text(name): _text(kind) for name, kind in names.items()},
        problems=tuple(LoadProblem(_text(where), _text(message)) for where, message in map(_pair, problems)),
        stdout=_text(header.get("stdout", "")),
        seconds=_seconds(header.get("seconds")),
    )


def _text(value, limit: int = 1_000_000) -> str:
    if type(value) is not str:
        raise protocol.ProtocolError(f"malformed reply (expected text, got {type(value).__name__})")
    return value[:limit]


def _seconds(value) -> float:
    if type(value) is float or (type(value) is int and abs(value) < 2**53):
        return float(value)
    raise protocol.ProtocolError("malformed reply (seconds)")


def _pair(value) -> tuple:
    if type(value) is not list or len(value) != 2:
        raise protocol.ProtocolError("malformed reply (expected a pair)")
    return tuple(value)
