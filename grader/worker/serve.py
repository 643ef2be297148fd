"""The worker: confine this process, load the submission, answer calls until the grader hangs up.

It runs in a child the zygote forked, or, where fork is missing, as
`python -m grader.worker.serve SOCKET_FD OUTPUT_FD REQUEST_JSON`. It is the only place student
code runs, and what leaves it is data (values.py) in bounded messages (channel.py):

  load:     -> {"op": "loaded", "ok", "names", "problems", "stopped", "notes", "stdout", "seconds"}
  request:  {"op": "call", "seq", "name", "calls": [[args, kwargs], ...], "counts": [arrays of
            each call, ...], "stand_ins": [names, optional]} + the calls' arrays, each call
            numbering its own from 0; during a call, its stand-ins may ask the grader
            (stand_ins.py) and wait for the answer; "alarm": seconds a call may run, "slow":
            [names known not to return in time: they raise at once], "crashed": [names known
            to end the worker: they raise a RuntimeError at once]
            {"op": "get", "seq", "name"}
  replies:  one per call, in order, each sent as soon as its call returns:
            {"seq", "index", "status": "ok" | "raised" | "timeout" | "missing" | "not_callable",
             "value" | "error" | "message", "stdout", "seconds", "slow": the function still
             running at the alarm, optional} + the value's arrays
            {"op": "died", "status": wait status}: the process answering calls (answer_calls,
             forked once the submission loaded) died; the next request forks another
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import signal
import stat
import sys
import time
import traceback
from pathlib import Path
from typing import NoReturn

from grader.worker import channel, hiding, mutation, sandbox, stand_ins, submission
from grader.worker.capture import OutputCapture
from grader.worker.top_level import TopLevelClock, TopLevelTimeout
from grader.worker.values import Decoder, Encoder, ProtocolError, TooLarge, type_name_of

RENEWED, CLOSED = 71, 72  # how a process answering calls ends, but for a crash (answer_calls)
SERVING = False  # True in a worker's process (`run`): a graded `check()` then does nothing


def run(sock_fd: int, out_fd: int, request: dict, zygote_pid: int | None = None) -> NoReturn:
    """The whole life of a worker; never returns."""
    global SERVING
    SERVING = True
    code = sandbox.CRASH_EXIT
    try:
        signal.signal(signal.SIGINT, signal.default_int_handler)  # the zygote ignores ^C
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # past the file-size limit: EFBIG instead
        # with the grader's rights, before any limit but bounded by --file-mb: no more is read
        source = read_submission(Path(request["submission"]), request["file_mb"] * 2**20)
        sock = sandbox.confine(sock_fd, out_fd, request, zygote_pid)
        capture = OutputCapture(request["max_output_bytes"])
        conn = channel.Connection(sock, send=channel.REPLY, receive=channel.REQUEST)
        serve(conn, capture, Path(request["submission"]), source, request)
        code = 0
    except BaseException:  # noqa: BLE001 - shown to the grader as this worker's output
        traceback.print_exc()
    finally:
        os._exit(code)


SYMLINK_PROBLEM = ("the file is a symbolic link: the grader reads only a regular file, never what "
                   "a link points to (replace the link with the file itself)")
HARD_LINK_PROBLEM = ("the file is a hard link (it has {} names): the grader reads only a file of "
                     "one name, never one shared with another path (hand in a copy of the file)")
NOT_A_FILE = "not a regular file (a folder, a FIFO or a device): hand in the .py or .ipynb itself"


def read_submission(path: Path, most: int) -> bytes | str | None:
    """The submission's bytes, read with the grader's rights (it may sit where only they reach),
    and so never through a link: SYMLINK_PROBLEM for a symbolic one (a link to the solution would
    be read as root), HARD_LINK_PROBLEM for a file of more than one name (a hard link needs no
    right to read its file, and fs.protected_hardlinks may be off), NOT_A_FILE for a folder, a
    FIFO or a device, and what the limit is for one of more than `most` bytes (at most `most` + 1
    are ever read). None when it cannot be read (loading says why)."""
    try:  # O_NONBLOCK: a FIFO must not block the worker
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
    except OSError as exc:
        return SYMLINK_PROBLEM if exc.errno == errno.ELOOP else None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode) or info.st_nlink > 1:  # before open(): it refuses a folder
        os.close(fd)
        return NOT_A_FILE if not stat.S_ISREG(info.st_mode) else HARD_LINK_PROBLEM.format(
            info.st_nlink)
    with open(fd, "rb") as handle:
        try:
            source = handle.read(most + 1)
        except OSError:
            return None
    if len(source) > most:  # past the limit: said in the student's terms, nothing of ours
        return (f"the file is more than {most // 2**20} MB, the largest the grader reads "
                "(--file-mb): hand in the .py or .ipynb without data or outputs in it")
    return source


def serve(conn: channel.Connection, capture: OutputCapture, path: Path, source: bytes | None,
          request: dict) -> None:
    """Load the submission, report on it, then answer requests until the connection closes."""
    capture.reset()
    start = time.perf_counter()
    budget = tuple(request["load_budget"])
    skip = frozenset(request.get("skip", ()))  # stopped at the first load: not run again
    if isinstance(source, str):  # SYMLINK_PROBLEM, HARD_LINK_PROBLEM, NOT_A_FILE, too large
        loaded = submission.Submission(path).unloadable(source)
    else:
        loaded = submission.load(path, source=source, budget=budget, skip=skip,
                                 setup=request.get("setup"))
    sandbox.quit_if_forked()
    report = {"op": "loaded", "ok": loaded.ok, "names": loaded.names(),
              "problems": [[p.where, p.message, list(p.binds), p.statement] if p.binds
                           else [p.where, p.message] for p in loaded.problems],
              "stopped": loaded.stopped, "notes": loaded.notes, "hiding": hiding.report(),
              "stdout": capture.collect(), "seconds": time.perf_counter() - start}
    try:
        conn.send(report)
    except channel.MessageTooLarge as exc:  # a million top-level names: say so rather than crash
        message = f"the submission defines too much to report ({exc})"
        conn.send({**report, "ok": False, "names": {}, "problems": [[loaded.label, message]],
                   "stdout": report["stdout"][-2000:]})
    forks = hasattr(os, "fork")
    while True:
        try:
            header, blobs = conn.receive()
        except channel.ConnectionClosed:
            return
        if header.get("op") not in ("call", "get"):
            continue  # a stand-in's answer a dead call process did not read
        if not forks:
            answer(conn, loaded, header, blobs, capture, request)
            continue
        pid = sandbox.fork_server()  # calls run in a copy of the loaded submission
        if pid == 0:
            answer_calls(conn, loaded, header, blobs, capture, request)
        status = os.waitpid(pid, 0)[1]
        with contextlib.suppress(OSError):  # what it started, in its process group (whatever
            os.killpg(pid, signal.SIGKILL)  # left it is killed when the worker is)
        with contextlib.suppress(ChildProcessError):  # orphans, as pid 1 of a PID namespace
            while os.waitpid(-1, os.WNOHANG)[0]:
                pass
        code = os.waitstatus_to_exitcode(status)
        if code == CLOSED:
            return
        if code != RENEWED:  # it crashed: the grader is told, the next request forks again
            conn.send({"op": "died", "status": status})


def answer_calls(conn: channel.Connection, loaded: submission.Submission, header: dict, blobs,
                 capture: OutputCapture, request: dict) -> NoReturn:
    """The process that answers calls, forked from the loaded worker under its confinement:
    until the grader hangs up (CLOSED) or a call's alarm stopped it (RENEWED: what the call
    left running goes with it). A crash ends it too; either way the worker forks another, and
    the submission's top level is not run again."""
    code = sandbox.CRASH_EXIT
    capture.empty = False  # a process before it may have printed
    try:
        os.setpgid(0, 0)
        while answer(conn, loaded, header, blobs, capture, request):
            header, blobs = conn.receive()
        code = RENEWED
    except channel.ConnectionClosed:
        code = CLOSED
    except BaseException:  # noqa: BLE001 - shown to the grader as this worker's output
        traceback.print_exc()
    finally:
        os._exit(code)


def answer(conn: channel.Connection, loaded: submission.Submission, header: dict, blobs,
           capture: OutputCapture, request: dict) -> bool:
    """Answer one request: each call's reply goes out as soon as the call returns. False when
    a call's alarm stopped it: the calls after it are not run (the grader counts them out)."""
    op, name, seq = header.get("op"), header.get("name"), header.get("seq")
    if op not in ("call", "get") or type(name) is not str or type(seq) is not int:
        raise ProtocolError(f"unknown request {str(op)[:20]!r}")
    calls = header.get("calls") if op == "call" else [None]
    counts = header.get("counts") if op == "call" else [0]
    if (type(calls) is not list
            or not all(c is None or (type(c) is list and len(c) == 2) for c in calls)
            or type(counts) is not list or len(counts) != len(calls) or sum(counts) != len(blobs)):
        raise ProtocolError("malformed calls")
    standing_in = stand_ins.requested(header) if op == "call" else {}
    slow = header.get("slow", [])  # the grader's own, as the alarm: trusted
    crashed = header.get("crashed", [])  # known to end the worker: they raise at once
    clock = TopLevelClock(header.get("alarm") or 1e6, float("inf"))  # armed for each call
    start = 0
    with clock:  # its handler set once a request: a call costs two setitimer calls
        for index, (call, count) in enumerate(zip(calls, counts, strict=True)):
            decoder = Decoder(blobs[start : start + count])
            start += count
            with stand_ins.bound(loaded.namespace, standing_in, conn, seq, index, slow, crashed):
                reply, reply_blobs, kind = answer_one(loaded, op, name, call, decoder, capture,
                                                      request, clock)
            send_reply(conn, {"seq": seq, "index": index, **reply}, reply_blobs, kind)
            if reply.get("slow") and reply["slow"] not in slow:
                return False
    return True


def answer_one(loaded: submission.Submission, op: str, name: str, call, decoder: Decoder,
               capture: OutputCapture, request: dict,
               clock: TopLevelClock) -> tuple[dict, list[bytes], str]:
    """One call (or get) -> (reply, its arrays, its value's type); the call under `clock`."""
    if name not in loaded.namespace:
        message = f"{loaded.label} does not define {name}"
        return {"status": "missing", "message": message}, [], ""
    target = loaded.namespace[name]
    if op == "get":
        return run_student(lambda: target, loaded, capture, request, clock, name)
    if not callable(target):
        message = f"{name} is not a function (it is of type {type(target).__name__})"
        return {"status": "not_callable", "message": message}, [], ""
    args, kwargs = decoder.decode(call[0]), decoder.decode(call[1])
    if type(args) is not list or type(kwargs) is not dict:
        raise ProtocolError("malformed call arguments")
    kept, returned = mutation.snapshot(args, kwargs), []
    reply, blobs, kind = run_student(lambda: _kept(returned, target(*args, **kwargs)), loaded,
                                     capture, request, clock, name)
    if reply["status"] == "ok":
        reply["mutated"] = mutation.changed(kept)
        if reply["mutated"] and returned:
            reply["holds_returned"] = mutation.holding(kept, reply["mutated"], returned[0])
    return reply, blobs, kind


def _kept(box: list, value):
    """`value`, kept in `box` too: what a call returned, for the arrays it changed to compare."""
    box.append(value)
    return value


def run_student(thunk, loaded: submission.Submission, capture: OutputCapture, request: dict,
                clock: TopLevelClock, name: str):
    """Run student code; whatever it raises (SystemExit and KeyboardInterrupt too) is an answer.
    Past `clock`'s limit it is stopped (top_level.py: an `except` cannot hold it); the reply's
    `slow` names the innermost of the student's top-level functions then running (or `name`)."""
    capture.reset()
    start = time.perf_counter()
    blobs, kind = [], ""
    try:
        value = clock.call(thunk)
        sandbox.quit_if_forked()
        kind = type_name_of(value)
        bounds = channel.REPLY  # a value at these bounds is described instead (send_reply)
        encoder = Encoder(lenient=True, max_bytes=bounds.total_bytes,
                          max_containers=bounds.containers)
        try:
            reply = {"status": "ok", "value": encoder.encode(value)}
            blobs = encoder.blobs
        except TooLarge as exc:
            reply = {"status": "ok", "value": too_large(kind, str(exc))}
    except TopLevelTimeout as exc:  # its limit (its name, if it called one known not to return)
        sandbox.quit_if_forked()
        reply = {"status": "timeout", "slow": str((exc.args or [name])[0])[:200]}  # or below
    except BaseException as exc:  # noqa: BLE001 - the student's exception is the answer
        sandbox.quit_if_forked()
        error = loaded.describe_error(exc)
        note = limit_note(exc, request)
        if note:
            error["limit"] = note
            error["message"] = f"{error['message']} ({note})" if error["message"] else note
        reply = {"status": "raised", "error": error}
    if clock.where:  # the innermost own function is the one that looped
        reply["slow"] = next((code.co_name for code in clock.where
                              if code.co_filename in loaded.own_files
                              and callable(loaded.namespace.get(code.co_name))), name)
    reply["seconds"] = time.perf_counter() - start
    reply["stdout"] = capture.collect()
    return reply, blobs, kind


def too_large(kind: str, reason: str) -> dict:
    """The value a reply carries instead of one of type `kind` it cannot: a description."""
    return {"__foreign__": [kind, f"not sent: {reason}"[:200]]}


def send_reply(conn: channel.Connection, reply: dict, blobs: list[bytes], kind: str) -> None:
    """Send a reply; one too large for any reply is described instead of sent (its value's
    type `kind` kept, so the student reads "an object of type str (not sent: ...)")."""
    try:
        conn.send(reply, blobs)
    except channel.MessageTooLarge as exc:
        if reply.get("status") == "ok":
            reason = f"larger than a reply may be ({exc})"
            reply = {**reply, "value": too_large(kind, reason)}
        reply["stdout"] = reply.get("stdout", "")[-2000:]
        conn.send(reply)


def limit_note(exc: BaseException, request: dict) -> str | None:
    """Which of the worker's limits `exc` most likely comes from, in words; None for the others."""
    if isinstance(exc, MemoryError):
        return f"the grader limits the memory of your code to {request['memory_mb']} MB"
    if isinstance(exc, OSError) and exc.errno == errno.EFBIG:
        return f"the grader limits files your code writes to {request['file_mb']} MB"
    if (isinstance(exc, OSError) and exc.errno == errno.EAGAIN and exc.filename is None) or (
        type(exc) is RuntimeError and "can't start new thread" in str(exc)
    ):
        return f"the grader limits your code to {request['max_processes']} processes and threads"
    return None


if __name__ == "__main__":  # the worker without a zygote (see the module's docstring)
    run(int(sys.argv[1]), int(sys.argv[2]), json.loads(sys.argv[3]))
