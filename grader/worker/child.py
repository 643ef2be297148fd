"""The worker: sandbox this process, load the submission, then answer calls until the grader hangs up.

It runs in a child the zygote forked, or, where fork is missing, as
`python -m grader.worker.child SOCKET_FD OUTPUT_FD REQUEST_JSON`. It is the only place student code
runs. What leaves it is data (protocol.py): the grading side never calls anything built here.
What the sandbox does and does not stop is docs/security.md.
"""

from __future__ import annotations

import ctypes
import errno
import functools
import io
import json
import os
import resource
import secrets
import signal
import socket
import stat
import sys
import time
import traceback
from pathlib import Path
from typing import NoReturn

from grader.worker import batches, protocol
from grader.worker import submission as submissions

SOCKET_FD = 3  # where the worker keeps its socket once every other descriptor is closed
CRASH_EXIT = 70  # the worker's own failure (not the student's), as the grading side will see it
# As root, a worker becomes a user drawn at random from WORKER_UID_BASE + [0, 2**27): a user of its
# own, which owns no file and which no other worker (of this or any other grading run, in any pid
# namespace) shares, so "every process of that user" is exactly what the submission started.
# Above the ranges systemd hands out (containers end at 0x6FFFFFFF), below 2**31. Where such a user
# cannot exist (a user namespace that maps only 65536 ids), the worker falls back to `nobody`.
WORKER_UID_BASE = 2_000_000_000
WORKER_UIDS = 2**27
NOBODY = 65534

_PR_SET_PDEATHSIG = 1
_PR_SET_DUMPABLE = 4
_PR_SET_KEEPCAPS = 8
_PR_CAPBSET_DROP = 24
_PR_SET_SECUREBITS = 28
_PR_SET_NO_NEW_PRIVS = 38
# SECBIT_NOROOT, NO_SETUID_FIXUP, KEEP_CAPS_LOCKED, NO_CAP_AMBIENT_RAISE, each locked: uid 0 regains
# no capability through exec, ever
_SECURE_NOROOT = 0xEF
_CAP_DAC_READ_SEARCH = 2  # read any file, search any folder (and nothing else)
_LINUX_CAPABILITY_VERSION_3 = 0x20080522
_libc = ctypes.CDLL(None, use_errno=True) if sys.platform.startswith("linux") else None


def run(sock_fd: int, out_fd: int, request: dict, zygote_pid: int | None = None) -> NoReturn:
    """The whole life of a worker; never returns."""
    code = CRASH_EXIT
    try:
        conn, capture, source = enter_sandbox(sock_fd, out_fd, request, zygote_pid)
        serve(conn, capture, Path(request["submission"]), source, request)
        code = 0
    except BaseException:  # noqa: BLE001 - shown to the grader as this worker's output
        traceback.print_exc()
    finally:
        os._exit(code)


def enter_sandbox(sock_fd: int, out_fd: int, request: dict, zygote_pid: int | None = None):
    """Confine this process before any student code runs -> (connection, output capture, source).

    `source` is the submission's bytes, read before anything else (None if it cannot be read):
    as root, the file may sit in a folder only root can open. Then, in this order: a session of
    its own, an unprivileged user of its own (as root), no way back to privileges, death with
    the zygote, an empty working folder, a scrubbed environment, resource limits, and no
    descriptor but the socket and the output file.
    """
    os.setsid()  # a process group of its own: the grading side kills the whole group
    signal.signal(signal.SIGINT, signal.default_int_handler)  # the zygote ignores ^C; students get the default
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # past the file-size limit, write() fails (EFBIG) instead
    source = _read_submission(Path(request["submission"]))
    workdir = request["workdir"]
    uid = drop_privileges(workdir)
    if zygote_pid is not None:
        _die_with_parent(zygote_pid)  # after the user changed: changing it clears the setting
    _no_way_back()
    os.chdir(workdir)  # a fresh empty directory: no stray files, nothing of the grader's
    _scrub_environment(workdir)
    _limit_resources(request, dedicated_user=uid is not None and uid != NOBODY)
    capture = OutputCapture(out_fd, request["max_output_bytes"])
    conn = protocol.Connection(_keep_only(sock_fd), send=protocol.REPLY, receive=protocol.REQUEST)
    _guard_forks()
    batches.install_alarm_handler()
    _hide_the_grader()
    return conn, capture, source


# What a submission may import of the grader: the worker itself, `check` (a no-op in here) and the
# package. The rest holds the reference answers and the specs with their hidden cases.
GRADER_ALLOWED = ("grader.worker", "grader.notebook_check")  # and their submodules; `grader` itself too


class _GraderHidden:
    """A meta path finder that refuses the grader's answer-bearing modules inside the worker."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        if name.startswith("grader.") and not _allowed(name):
            raise ImportError(f"{name} is part of the grader and cannot be imported by a submission: "
                              "write the code yourself")
        return None


def _hide_the_grader() -> None:
    """Make `import grader.reference` (and checks, specs, ...) fail for student code.

    Only a deterrent against copying answers: the files stay readable by the worker's user
    (docs/security.md); expected values themselves never exist in this process."""
    for name in [m for m in sys.modules if m.startswith("grader.") and not _allowed(m)]:
        del sys.modules[name]  # nothing should be loaded here, but a cached module would bypass the finder
    sys.meta_path.insert(0, _GraderHidden())


def _allowed(name: str) -> bool:
    return name == "grader" or any(name == a or name.startswith(a + ".") for a in GRADER_ALLOWED)


def serve(conn: protocol.Connection, capture: OutputCapture, path: Path, source: bytes | None = None,
          request: dict | None = None) -> None:
    """Load the submission, report on it, then answer requests until the connection closes."""
    request = request or {}
    capture.reset()
    start = time.perf_counter()
    budget = request.get("statement_seconds"), request.get("top_level_seconds")
    loaded = submissions.load(path, source=source, budget=None if None in budget else budget)
    _quit_if_forked()
    report = {
        "op": "loaded",
        "seq": 0,
        "ok": loaded.ok,
        "names": loaded.names(),
        "problems": [[problem.where, problem.message] for problem in loaded.problems],
        "stdout": capture.collect(),
        "seconds": time.perf_counter() - start,
    }
    try:
        conn.send(report)
    except protocol.MessageTooLarge as exc:  # a million top-level names: say so rather than crash
        message = f"the submission defines too much to report ({exc})"
        conn.send({**report, "ok": False, "names": {}, "problems": [[loaded.label, message]], "stdout": ""})
    while True:
        try:
            header, blobs = conn.receive()
        except protocol.ConnectionClosed:
            return
        _answer(loaded, header, blobs, capture, request, conn)


def _answer(loaded: submissions.Submission, header: dict, blobs, capture: OutputCapture, request: dict,
            conn: protocol.Connection) -> None:
    """Answer one request (batches.py): "calls" of a function, one per [args, kwargs], or "get" a name."""
    op, name = header.get("op"), header.get("name")
    if op not in ("calls", "get") or type(name) is not str:
        raise protocol.ProtocolError(f"unknown request {op!r}")
    if op == "get":
        calls, blobs_of = [None], [[]]
    elif "known" in header:  # inputs this worker holds already (remember_inputs): by their keys
        calls = header["known"]
        if type(calls) is not list or not all(type(key) is int and key in KNOWN_INPUTS for key in calls):
            raise protocol.ProtocolError("unknown inputs")
        blobs_of = [[]] * len(calls)
    else:
        calls = header.get("calls")
        if type(calls) is not list or not all(type(c) is list and len(c) == 2 for c in calls):
            raise protocol.ProtocolError("malformed calls")
        blobs_of = batches.blobs_by_item(blobs, header.get("counts"), len(calls))
    replies = batches.ReplyBatch(conn, header.get("seq"))
    for call, call_blobs in zip(calls, blobs_of):
        replies.before_call()
        try:
            reply, out_blobs, type_name = _answer_one(loaded, op, name, call, call_blobs, capture, request)
        finally:
            replies.after_call()
        replies.add(reply, out_blobs, type_name)
    replies.flush()


def _answer_one(loaded: submissions.Submission, op: str, name: str, call, blobs, capture: OutputCapture,
                request: dict):
    """One call (or get) -> (reply, reply blobs, type name of the value)."""
    if name not in loaded.namespace:
        return {"status": "missing", "message": f"{loaded.label} does not define {name}"}, [], ""
    target = loaded.namespace[name]
    if op == "get":
        return _run_student(lambda: target, loaded, capture, request)
    if not callable(target):
        message = f"{name} is not a function (it is of type {type(target).__name__})"
        return {"status": "not_callable", "message": message}, [], ""
    if type(call) is int:
        args, kwargs = protocol.fresh_copy(KNOWN_INPUTS[call])  # the student may change them in place
    else:
        decoder = protocol.Decoder(blobs)
        args, kwargs = decoder.decode(call[0]), decoder.decode(call[1])
    if type(args) not in (tuple, list) or type(kwargs) is not dict:
        raise protocol.ProtocolError("malformed call arguments")
    return _run_student(lambda: target(*args, **kwargs), loaded, capture, request)


# Inputs a zygote was told before it forked this worker (remember_inputs): key -> (args, kwargs).
KNOWN_INPUTS: dict[int, tuple] = {}


def remember_inputs(entries: list, data: bytes) -> None:
    """In the zygote: decode each [key, args, kwargs, blob sizes] of `entries`, its arrays read
    from `data` in turn, into KNOWN_INPUTS (see batches.py: a request then names them)."""
    view, offset = memoryview(data), 0
    for key, args, kwargs, sizes in entries:
        if type(key) is not int or type(sizes) is not list or not all(type(n) is int and n >= 0 for n in sizes):
            raise protocol.ProtocolError("malformed inputs")
        blobs = []
        for size in sizes:
            blobs.append(view[offset : offset + size])
            offset += size
        decoder = protocol.Decoder(blobs)
        KNOWN_INPUTS[key] = (decoder.decode(args), decoder.decode(kwargs))
    if offset != len(data):
        raise protocol.ProtocolError("inputs and their arrays do not match")


def _run_student(thunk, loaded: submissions.Submission, capture: OutputCapture, request: dict):
    """Run student code; whatever it raises (SystemExit and KeyboardInterrupt too) is an answer."""
    capture.reset()
    start = time.perf_counter()
    blobs, type_name = [], ""
    try:
        value = thunk()
        _quit_if_forked()
        type_name = type(value).__name__
        bounds = protocol.REPLY
        encoder = protocol.Encoder(lenient=True, max_array_bytes=bounds.array_bytes, max_containers=bounds.containers)
        reply = {"status": "ok", "value": encoder.encode(value)}
        blobs = encoder.blobs
    except BaseException as exc:  # noqa: BLE001 - the student's exception is the answer
        _quit_if_forked()
        error = loaded.describe_error(exc)
        note = limit_note(exc, request)
        if note:
            error["limit"] = note
            error["message"] = f"{error['message']} ({note})" if error["message"] else note
        reply = {"status": "raised", "error": error}
    reply["seconds"] = time.perf_counter() - start
    reply["stdout"] = capture.collect()
    return reply, blobs, type_name


def limit_note(exc: BaseException, request: dict) -> str | None:
    """Which of the worker's limits `exc` most likely comes from, in words; None for the others."""
    if isinstance(exc, MemoryError):
        return f"the grader limits the memory of your code to {request.get('memory_mb')} MB"
    if isinstance(exc, OSError) and exc.errno == errno.EFBIG:
        return f"the grader limits files your code writes to {request.get('file_mb')} MB"
    if (isinstance(exc, OSError) and exc.errno == errno.EAGAIN and exc.filename is None) or (
        type(exc) is RuntimeError and "can't start new thread" in str(exc)
    ):
        return f"the grader limits your code to {request.get('max_processes')} processes and threads"
    return None


class OutputCapture:
    """Student output, kept to `limit` bytes per call and never able to block or reach the socket.

    fds 1 and 2 (C code, subprocesses) go to the output file the grading side handed over;
    sys.stdout and sys.stderr write to it through a byte budget, so printing 50 MB costs nothing
    beyond the first `limit` bytes. What C code writes straight to fds 1 and 2 is bounded by the
    file-size limit (RLIMIT_FSIZE) instead. The grading side can read the file after the worker died.
    """

    def __init__(self, out_fd: int, limit: int):
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)  # input() fails at once instead of waiting forever
        os.close(null)
        os.dup2(out_fd, 1)
        os.dup2(out_fd, 2)
        self.limit, self.room, self.dropped = limit, limit, 0
        self._empty = False  # nothing was written since the output file was last emptied
        sys.stdin = sys.__stdin__ = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115 - /dev/null
        sys.stdout = sys.__stdout__ = _CappedStream(self, 1)
        sys.stderr = sys.__stderr__ = _CappedStream(self, 2)

    def reset(self) -> None:
        self.room, self.dropped = self.limit, 0
        if self._empty:  # most calls print nothing: two system calls saved per call
            return
        try:
            os.lseek(1, 0, os.SEEK_SET)
            os.ftruncate(1, 0)
        except OSError:  # the student closed fd 1; their output is gone, the answers are not
            pass

    def collect(self) -> str:
        try:
            text = protocol.read_captured(1, self.limit, self.dropped)
        except OSError:
            text = ""
        self._empty = text == ""  # (C code that moved fd 1's offset can only garble its own output)
        return text

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
        room = self._capture.room
        if room:  # a character is at least one byte: encode no more than could be kept
            kept = text[:room]
            self._capture.write(self._fd, kept.encode("utf-8", "replace"))
            self._capture.dropped += len(text) - len(kept)
        else:
            self._capture.dropped += len(text)
        return len(text)

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        return self._fd


def _read_submission(path: Path) -> bytes | None:
    """The submission's bytes, read with the grader's rights; None when it is not a readable file
    (loading then reports why, as it always did)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))  # a FIFO must not block the worker
    except OSError:
        return None
    with open(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        try:
            return handle.read()
        except OSError:
            return None


# -- privileges -----------------------------------------------------------------------------------


def drop_privileges(workdir: str) -> int | None:
    """As root, become an unprivileged user of this worker's own -> its uid; None when not root.

    The user has no groups and owns only `workdir`, so it can neither write the grader's files
    (package, specs, results) nor signal or inspect the grader's processes. When the folders
    Python imports from cannot be read by other users (a pyenv under /root), the worker keeps
    the one capability to read files (CAP_DAC_READ_SEARCH), so `import` works: it still cannot
    write, signal or inspect anything of root's. Where no other user exists (root of a user
    namespace that maps one uid: rootless containers, `bwrap --uid 0`), the worker stays uid 0
    with no capability at all, as good as the user who started the namespace (docs/security.md).
    """
    if not hasattr(os, "setresuid") or os.geteuid() != 0:
        return None
    keep_reading = not import_path_readable()
    for uid in (WORKER_UID_BASE + secrets.randbelow(WORKER_UIDS), NOBODY):
        try:
            os.chown(workdir, uid, uid)
            os.chmod(workdir, 0o700)
            if keep_reading:
                _prctl(_PR_SET_KEEPCAPS, 1)
            os.setgroups([])
            os.setresgid(uid, uid, uid)
            os.setresuid(uid, uid, uid)
        except OSError:  # a user namespace that does not map this uid: try the next one
            continue
        if keep_reading:
            try:
                _keep_only_capability(_CAP_DAC_READ_SEARCH)
            except PermissionError:  # not ours to keep (a container without it): imports may fail
                _keep_only_capability(None)
            _prctl(_PR_SET_KEEPCAPS, 0)
        return uid
    _drop_all_capabilities()
    return None


@functools.cache
def import_path_readable() -> bool:
    """Whether a user with no groups, owning nothing, can read every folder Python imports from.

    Judged from the permission bits for "others" of each folder of sys.path and its parents
    (ACLs are not read). The zygote asks once, before forking, so workers inherit the answer.
    """
    for entry in sys.path:
        try:
            folder = Path(entry or ".").resolve()
            if not folder.exists():
                continue
            wanted = stat.S_IROTH | (stat.S_IXOTH if folder.is_dir() else 0)
            if folder.stat().st_mode & wanted != wanted:
                return False
            if any(not parent.stat().st_mode & stat.S_IXOTH for parent in folder.parents):
                return False
        except OSError:
            continue
    return True


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]


def _keep_only_capability(capability: int | None) -> None:
    """Effective and permitted capabilities: `capability` alone (None: none); none to pass on through exec."""
    header = _CapHeader(_LINUX_CAPABILITY_VERSION_3, 0)
    data = (_CapData * 2)()
    if capability is not None:
        data[capability // 32].effective = data[capability // 32].permitted = 1 << (capability % 32)
    if _libc is None or _libc.capset(ctypes.byref(header), data) != 0:
        raise PermissionError(f"capset failed (errno {ctypes.get_errno()})")


def _drop_all_capabilities() -> None:
    """Stay uid 0 but with no capability, none to regain by exec (bounding set, securebits)."""
    try:
        last = int(Path("/proc/sys/kernel/cap_last_cap").read_text())
    except (OSError, ValueError):
        last = 63
    for capability in range(last + 1):
        _prctl(_PR_CAPBSET_DROP, capability)
    _prctl(_PR_SET_SECUREBITS, _SECURE_NOROOT)
    _keep_only_capability(None)


def _no_way_back() -> None:
    """No new privileges through exec (setuid programs such as sudo, file capabilities), and not
    dumpable: a process of the same user can then neither ptrace this one nor read its memory."""
    _prctl(_PR_SET_NO_NEW_PRIVS, 1)
    _prctl(_PR_SET_DUMPABLE, 0)


def _prctl(option: int, value: int) -> None:
    if _libc is not None:
        _libc.prctl(option, value, 0, 0, 0)


def _die_with_parent(zygote_pid: int) -> None:
    """Ask the kernel to kill this worker if the zygote dies, so no worker outlives the grader."""
    _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != zygote_pid:  # it died before the request took effect
        os._exit(CRASH_EXIT)


# -- forks of the worker ------------------------------------------------------------------------

_worker_pid = os.getpid()


def _guard_forks() -> None:
    """A process the student forks from the worker never speaks for it: its copy of the socket
    becomes /dev/null, and if it returns from student code it leaves quietly (see _quit_if_forked),
    so it can neither interleave bytes with the worker's answers nor answer a later call."""
    global _worker_pid
    _worker_pid = os.getpid()
    if hasattr(os, "register_at_fork"):
        os.register_at_fork(after_in_child=_silence_socket)


def _silence_socket() -> None:
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, SOCKET_FD, inheritable=False)
    os.close(null)


def _quit_if_forked() -> None:
    """In a process forked by student code (os.fork, or libc's fork through ctypes): exit now."""
    if os.getpid() != _worker_pid:
        os._exit(0)


# -- environment and limits ---------------------------------------------------------------------


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


def _limit_resources(request: dict, dedicated_user: bool) -> None:
    """Address space, file size, processes (soft = hard: student code cannot raise them), no core.

    RLIMIT_NPROC counts every process and thread of the real user. A user of the worker's own
    has only the worker; otherwise (not root) the user's other processes count too, so the
    limit is what they run now plus `max_processes`.
    """
    _set_limit(resource.RLIMIT_AS, request["memory_mb"] * 2**20)
    _set_limit(resource.RLIMIT_CORE, 0)  # a segfault must not write a core file
    if request.get("file_mb") is not None:
        _set_limit(resource.RLIMIT_FSIZE, request["file_mb"] * 2**20)
    processes = request.get("max_processes")
    if processes is not None and hasattr(resource, "RLIMIT_NPROC"):
        others = 0 if dedicated_user else _tasks_of_user(os.getuid())
        if others is not None:
            _set_limit(resource.RLIMIT_NPROC, others + processes)


def _set_limit(kind: int, limit: int) -> None:
    _soft, hard = resource.getrlimit(kind)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(kind, (limit, limit))


def _tasks_of_user(uid: int) -> int | None:
    """Processes and threads whose real user is `uid`, from /proc; None without /proc."""
    try:
        pids = [name for name in os.listdir("/proc") if name.isdigit()]
    except OSError:
        return None
    count = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status", "rb") as handle:
                fields = dict(line.split(b":", 1) for line in handle.read().splitlines() if b":" in line)
            if int(fields[b"Uid"].split()[0]) == uid:
                count += int(fields[b"Threads"])
        except (OSError, KeyError, ValueError):
            continue
    return count


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
