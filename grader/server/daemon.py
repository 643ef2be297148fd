"""The warm grading server (see __init__.py): `python -m grader.server.daemon [--warm DIR]`.

    server  imports pytest, numpy and the grader, loads the specs of DIR and computes their
            cases' expected values; then forks a spare and listens on the socket
    spare   a fork of the server, waiting on a private channel, its own zygote starting meanwhile;
            it gets one client's connection, becomes that `vitgrade grade`, and exits

Messages on a client connection are JSON lines. The client sends its request with its stdin,
stdout and stderr attached (SCM_RIGHTS); the spare answers {"pid": N} when it starts and
{"exit": code} at the end; the server itself answers {"stale": true} when it is not the server
the client needs (other code, Python, packages or zygote environment), and then exits.
"""
from __future__ import annotations

import argparse
import fcntl
import json
import os
import select
import signal
import socket
import struct
import sys
import time

from grader.server import paths

REQUEST_BYTES = 2**20  # a command line and an environment
REQUEST_SECONDS = 5.0  # for a connected client to send its request


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m grader.server.daemon")
    parser.add_argument("--warm", metavar="DIR", help="an exercises folder to load and prepare now")
    args = parser.parse_args(argv)
    path = paths.socket_path()
    lock = open(path + ".lock", "w")  # noqa: SIM115 - held for the server's life
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return 0  # another server runs, or is starting
    fingerprint = paths.fingerprint()
    from grader.process_setup import single_threaded_blas

    single_threaded_blas()  # before numpy's import (a server started by `vitgrade` has it already)
    _warm_up(args.warm)
    if os.path.exists(path):
        os.unlink(path)  # a server that died left it; we hold the lock
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    bound = os.stat(path).st_ino
    listener.listen(8)
    _log(f"listening on {path} (pid {os.getpid()})")
    try:
        serve(listener, fingerprint, _idle_seconds(), private=[listener.fileno(), lock.fileno()])
    finally:
        listener.close()
        if _inode(path) == bound:  # not a newer server's socket
            os.unlink(path)
        lock.close()
    return 0


def serve(listener: socket.socket, fingerprint: str, idle_seconds: float, private: list[int]) -> None:
    """Hand each client to the spare and fork the next; return after `idle_seconds` without one,
    or after refusing a client this server cannot serve. `private`: the server's own descriptors,
    closed in every spare (a spare holding the socket would keep a dead server reachable)."""
    zygote_env = _zygote_env(os.environ)
    spare = Spare.fork(private)
    try:
        while True:
            ready, _, _ = select.select([listener], [], [], idle_seconds)
            _reap_children()
            if not ready:
                _log("idle: exiting")
                return
            conn, _ = listener.accept()
            with conn:
                request = _read_request(conn)
                if request is None:
                    continue
                header, fds = request
                if header.get("fingerprint") != fingerprint or _zygote_env(header.get("env", {})) != zygote_env:
                    _send(conn, {"stale": True})
                    _close_all(fds)
                    _log("stale: the client's code, Python, packages or environment differ; exiting")
                    return
                _log(f"grading: vitgrade {' '.join(map(str, header.get('argv', [])))} (in {header.get('cwd')})")
                try:
                    spare.hand_over(conn, header, fds)
                except OSError as exc:  # the spare died: the client, hung up on, grades locally
                    _log(f"the spare was gone ({exc})")
                _close_all(fds)
            spare = Spare.fork(private)
    finally:
        spare.dismiss()


class Spare:
    """A forked copy of the server waiting for one client (its zygote imports numpy meanwhile)."""

    def __init__(self, pid: int, channel: socket.socket):
        self.pid, self.channel = pid, channel

    @classmethod
    def fork(cls, private: list[int]) -> Spare:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        pid = os.fork()
        if pid == 0:
            ours.close()
            _close_all(private)
            try:
                _spare_main(theirs)
            finally:
                os._exit(70)
        theirs.close()
        return cls(pid, ours)

    def hand_over(self, conn: socket.socket, header: dict, fds: list[int]) -> None:
        socket.send_fds(self.channel, [json.dumps(header).encode()], [conn.fileno(), *fds])
        self.channel.close()

    def dismiss(self) -> None:
        self.channel.close()  # the spare reads end of file and exits with its zygote


def _spare_main(channel: socket.socket) -> None:
    from grader.worker import prestart_zygote

    # ^C, relayed by the client, raises KeyboardInterrupt, as in a local run
    signal.signal(signal.SIGINT, signal.default_int_handler)
    prestart_zygote()  # a zygote of our own: owned, and reaped, by this process
    try:
        data, fds, _, _ = socket.recv_fds(channel, REQUEST_BYTES, 4)
    except OSError:
        data, fds = b"", []
    channel.close()
    if not data or len(fds) != 4:
        from grader.worker.client import _close_shared

        _close_shared()
        os._exit(0)
    conn_fd, stdin, stdout, stderr = fds
    os._exit(_become_client(socket.socket(fileno=conn_fd), json.loads(data), (stdin, stdout, stderr)))


def _become_client(conn: socket.socket, header: dict, std_fds: tuple[int, int, int]) -> int:
    """Run the client's command as the client would have, in its folder, environment and
    terminal; tell it the exit code. Returns this process's own exit status."""
    for target, fd in enumerate(std_fds):
        os.dup2(fd, target)
        os.close(fd)
    _reopen_standard_streams()
    os.chdir(header["cwd"])
    os.umask(int(header.get("umask", 0o022)))
    os.environ.clear()
    os.environ.update(header["env"])
    sys.argv = ["vitgrade", *header["argv"]]
    _send(conn, {"pid": os.getpid()})
    code = 2
    try:
        from grader.cli import main

        code = main(header["argv"])
    except SystemExit as done:
        code = done.code if isinstance(done.code, int) else (0 if done.code is None else 2)
    except KeyboardInterrupt:
        code = 130
    except BrokenPipeError:
        code = 1
    finally:
        import atexit

        atexit._run_exitfuncs()  # the zygote's shutdown, temporary folders: what exit would run
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
    try:
        _send(conn, {"exit": int(code)})
    except OSError:
        pass
    return 0


def _reopen_standard_streams() -> None:
    """sys.stdin/stdout/stderr on the client's descriptors, buffered as a fresh interpreter's are."""
    import io

    for fd, name, mode in ((0, "stdin", "r"), (1, "stdout", "w"), (2, "stderr", "w")):
        tty = os.isatty(fd)
        raw = io.open(fd, mode + "b", buffering=0 if name == "stderr" else -1, closefd=False)
        stream = io.TextIOWrapper(raw, encoding="utf-8", errors="backslashreplace" if name == "stderr" else "strict",
                                  line_buffering=tty or name == "stderr", write_through=name == "stderr")
        setattr(sys, name, stream)
        setattr(sys, f"__{name}__", stream)


def _read_request(conn: socket.socket) -> tuple[dict, list[int]] | None:
    """The client's request and its three standard descriptors, from this user only."""
    pid, uid, gid = struct.unpack("3i", conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i")))
    if uid != os.getuid():
        _log(f"refused a client of uid {uid}")
        return None
    conn.settimeout(REQUEST_SECONDS)
    fds: list[int] = []
    try:
        data, fds, _, _ = socket.recv_fds(conn, REQUEST_BYTES, 3)
        while data and not data.endswith(b"\n") and len(data) < REQUEST_BYTES:  # a stream: the rest may lag
            more = conn.recv(REQUEST_BYTES - len(data))
            if not more:
                break
            data += more
        header = json.loads(data)
    except (OSError, ValueError) as exc:
        _log(f"bad request ({exc})")
        _close_all(fds)
        return None
    finally:
        conn.settimeout(None)
    if len(fds) != 3 or type(header) is not dict:
        _close_all(fds)
        return None
    return header, fds


def _warm_up(exercises: str | None) -> None:
    """Import what grading imports; with `exercises`, load its specs and build their cases."""
    import numpy  # noqa: F401
    import pytest  # noqa: F401

    import grader.checks.grade  # noqa: F401
    import grader.cli  # noqa: F401
    import grader.plugin  # noqa: F401
    import grader.reference  # noqa: F401
    from grader.commands import command_modules

    command_modules()
    from grader.process_setup import freeze_loaded_objects

    try:
        if exercises:
            _prepare(exercises)
    finally:
        freeze_loaded_objects()  # spares then neither walk nor copy-on-write what the server loaded


def _prepare(exercises: str) -> None:
    """Load the specs of `exercises` and plan their call checks' cases, expected values included."""
    import grader.checks.grade as grade
    from grader.spec import load_specs

    loaded, _ = load_specs(exercises)
    for exercise in loaded:
        for check in exercise.checks:
            if check.kind == "call":
                try:
                    for planned in grade.planned_cases(check):
                        planned.expectation(check)
                    for _, batch in grade.planned_requests(check):
                        batch.header(check.call, 0)  # serialised now, not in each served run
                except Exception as exc:  # noqa: BLE001 - a broken spec is reported when it is graded
                    _log(f"could not prepare {exercise.id}: {exc}")
                    break


def _zygote_env(environ: dict) -> dict:
    """What of an environment a zygote depends on: a client whose differs needs another server."""
    from grader.worker.client import _INHERITED_ENV, SANDBOX_VARIABLE

    return {name: environ.get(name) for name in (*_INHERITED_ENV, SANDBOX_VARIABLE)}


def _send(conn: socket.socket, message: dict) -> None:
    conn.sendall(json.dumps(message).encode() + b"\n")


def _close_all(fds: list[int]) -> None:
    for fd in fds:
        try:
            os.close(fd)
        except OSError:
            pass


def _reap_children() -> None:
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def _idle_seconds() -> float:
    try:
        return float(os.environ.get(paths.IDLE_VARIABLE, paths.DEFAULT_IDLE_SECONDS))
    except ValueError:
        return paths.DEFAULT_IDLE_SECONDS


def _inode(path: str) -> int | None:
    try:
        return os.stat(path).st_ino
    except OSError:
        return None


def _log(message: str) -> None:
    print(f"{time.strftime('%Y-%m-%d %H:%M:%S')} vitgrade server: {message}", file=sys.stderr, flush=True)


if __name__ == "__main__":
    sys.exit(main())
