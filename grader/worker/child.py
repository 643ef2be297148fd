"""The worker: sandbox this process, load the submission, then answer calls until the grader hangs up.

It runs in a child the zygote forked, or, where fork is missing, as
`python -m grader.worker.child SOCKET_FD OUTPUT_FD REQUEST_JSON`. It is the only place student code
runs. What leaves it is data (protocol.py): the grading side never calls anything built here.
"""

from __future__ import annotations

import ctypes
import io
import json
import os
import resource
import signal
import socket
import sys
import time
import traceback
from pathlib import Path
from typing import NoReturn

from grader.worker import protocol
from grader.worker import submission as submissions

SOCKET_FD = 3  # where the worker keeps its socket once every other descriptor is closed
CRASH_EXIT = 70  # the worker's own failure (not the student's), as the grading side will see it

_PR_SET_PDEATHSIG = 1
_libc = ctypes.CDLL(None, use_errno=True) if sys.platform.startswith("linux") else None


def run(sock_fd: int, out_fd: int, request: dict, zygote_pid: int | None = None) -> NoReturn:
    """The whole life of a worker; never returns."""
    code = CRASH_EXIT
    try:
        conn, capture = enter_sandbox(sock_fd, out_fd, request, zygote_pid)
        serve(conn, capture, Path(request["submission"]))
        code = 0
    except BaseException:  # noqa: BLE001 - shown to the grader as this worker's output
        traceback.print_exc()
    finally:
        os._exit(code)


def enter_sandbox(sock_fd: int, out_fd: int, request: dict, zygote_pid: int | None = None):
    """Confine this process before any student code runs; returns (connection, output capture).

    Everything that limits the worker lives here, so hardening has one place to go: process
    counts, file sizes, an unprivileged user and friends belong next to these lines.
    """
    os.setsid()  # a process group of its own: the grading side kills the whole group
    if zygote_pid is not None:
        _die_with_parent(zygote_pid)
    signal.signal(signal.SIGINT, signal.default_int_handler)  # the zygote ignores ^C; students get the default
    workdir = request["workdir"]
    os.chdir(workdir)  # a fresh empty directory: no stray files, nothing of the grader's
    _scrub_environment(workdir)
    _limit_resources(request["memory_mb"])
    capture = OutputCapture(out_fd, request["max_output_bytes"])
    return protocol.Connection(_keep_only(sock_fd)), capture


def serve(conn: protocol.Connection, capture: OutputCapture, path: Path) -> None:
    """Load the submission, report on it, then answer requests until the connection closes."""
    capture.reset()
    start = time.perf_counter()
    loaded = submissions.load(path)
    conn.send(
        {
            "op": "loaded",
            "ok": loaded.ok,
            "names": loaded.names(),
            "problems": [[problem.where, problem.message] for problem in loaded.problems],
            "stdout": capture.collect(),
            "seconds": time.perf_counter() - start,
        }
    )
    while True:
        try:
            header, blobs = conn.receive()
        except protocol.ConnectionClosed:
            return
        reply, out_blobs, type_name = _answer(loaded, header, blobs, capture)
        try:
            conn.send(reply, out_blobs)
        except protocol.MessageTooLarge as exc:  # nothing was sent yet: answer with a description
            reply["value"] = {"__foreign__": [type_name, f"not sent: {exc}"[: protocol.MAX_SUMMARY]]}
            conn.send(reply)


def _answer(loaded: submissions.Submission, header: dict, blobs, capture: OutputCapture):
    """One request -> (reply header, reply blobs, type name of the value)."""
    op, name = header.get("op"), header.get("name")
    if op not in ("call", "get") or type(name) is not str:
        raise protocol.ProtocolError(f"unknown request {op!r}")
    if name not in loaded.namespace:
        return {"status": "missing", "message": f"{loaded.label} does not define {name}"}, [], ""
    target = loaded.namespace[name]
    if op == "get":
        return _run_student(lambda: target, loaded, capture)
    if not callable(target):
        message = f"{name} is not a function (it is of type {type(target).__name__})"
        return {"status": "not_callable", "message": message}, [], ""
    decoder = protocol.Decoder(blobs)
    args, kwargs = decoder.decode(header.get("args")), decoder.decode(header.get("kwargs"))
    if type(args) not in (tuple, list) or type(kwargs) is not dict:
        raise protocol.ProtocolError("malformed call arguments")
    return _run_student(lambda: target(*args, **kwargs), loaded, capture)


def _run_student(thunk, loaded: submissions.Submission, capture: OutputCapture):
    """Run student code; whatever it raises (SystemExit and KeyboardInterrupt too) is an answer."""
    capture.reset()
    start = time.perf_counter()
    blobs, type_name = [], ""
    try:
        value = thunk()
        type_name = type(value).__name__
        encoder = protocol.Encoder(lenient=True)
        reply = {"status": "ok", "value": encoder.encode(value)}
        blobs = encoder.blobs
    except BaseException as exc:  # noqa: BLE001 - the student's exception is the answer
        reply = {"status": "raised", "error": loaded.describe_error(exc)}
    reply["seconds"] = time.perf_counter() - start
    reply["stdout"] = capture.collect()
    return reply, blobs, type_name


class OutputCapture:
    """Student output, kept to `limit` bytes per call and never able to block or reach the socket.

    fds 1 and 2 (C code, subprocesses) go to the output file the grading side handed over;
    sys.stdout and sys.stderr write to it through a byte budget, so printing 5 MB costs nothing
    beyond the first `limit` bytes. The grading side can read the file after the worker died.
    """

    def __init__(self, out_fd: int, limit: int):
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)  # input() fails at once instead of waiting forever
        os.close(null)
        os.dup2(out_fd, 1)
        os.dup2(out_fd, 2)
        self.limit, self.room, self.dropped = limit, limit, 0
        sys.stdin = sys.__stdin__ = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115 - /dev/null
        sys.stdout = sys.__stdout__ = _CappedStream(self, 1)
        sys.stderr = sys.__stderr__ = _CappedStream(self, 2)

    def reset(self) -> None:
        self.room, self.dropped = self.limit, 0
        try:
            os.lseek(1, 0, os.SEEK_SET)
            os.ftruncate(1, 0)
        except OSError:  # the student closed fd 1; their output is gone, the answers are not
            pass

    def collect(self) -> str:
        try:
            return protocol.read_captured(1, self.limit, self.dropped)
        except OSError:
            return ""

    def write(self, fd: int, data: bytes) -> None:
        kept = data[: self.room]
        self.dropped += len(data) - len(kept)
        self.room -= len(kept)
        while kept:
            kept = kept[os.write(fd, kept) :]


class _CappedStream(io.TextIOBase):
    """sys.stdout / sys.stderr of the worker (see OutputCapture)."""

    encoding = "utf-8"

    def __init__(self, capture: OutputCapture, fd: int):
        self._capture, self._fd = capture, fd

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        if self._capture.room:
            self._capture.write(self._fd, text.encode("utf-8", "replace"))
        else:
            self._capture.dropped += len(text)
        return len(text)

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        return self._fd


def _die_with_parent(zygote_pid: int) -> None:
    """Ask the kernel to kill this worker if the zygote dies, so no worker outlives the grader."""
    if _libc is not None:
        _libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != zygote_pid:  # it died before the request took effect
        os._exit(CRASH_EXIT)


def _scrub_environment(workdir: str) -> None:
    """A minimal environment: nothing of the grader's (tokens, paths) reaches student code."""
    path = os.environ.get("PATH", os.defpath)
    os.environ.clear()
    os.environ.update(
        PATH=path,
        HOME=workdir,
        TMPDIR=workdir,
        LANG="C.UTF-8",
        MPLBACKEND="Agg",
        OMP_NUM_THREADS="1",
        OPENBLAS_NUM_THREADS="1",
        MKL_NUM_THREADS="1",
        PYTHONDONTWRITEBYTECODE="1",
    )
    sys.dont_write_bytecode = True  # no __pycache__ in the student's folder from their own imports
    if "tempfile" in sys.modules:  # it may have cached the zygote's temporary directory
        sys.modules["tempfile"].tempdir = None


def _limit_resources(memory_mb: int) -> None:
    limit = memory_mb * 2**20
    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))  # a segfault must not write a core file


def _keep_only(sock_fd: int) -> socket.socket:
    """Close every descriptor but 0-2 and the socket (moved to SOCKET_FD): no zygote control
    socket, no other worker's socket, nothing inherited from the grader."""
    if sock_fd != SOCKET_FD:
        os.dup2(sock_fd, SOCKET_FD, inheritable=False)
    else:
        os.set_inheritable(SOCKET_FD, False)
    os.closerange(SOCKET_FD + 1, resource.getrlimit(resource.RLIMIT_NOFILE)[0])
    return socket.socket(fileno=SOCKET_FD)


def main(argv: list[str] | None = None) -> NoReturn:
    """The worker without a zygote: `python -m grader.worker.child SOCKET_FD OUTPUT_FD REQUEST_JSON`."""
    argv = sys.argv[1:] if argv is None else argv
    run(int(argv[0]), int(argv[1]), json.loads(argv[2]))


if __name__ == "__main__":
    main()
