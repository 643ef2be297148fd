"""The `vitgrade grade` side of the warm server: hand the command over, or run it here.

`served(argv)` returns the exit code when a server ran the command, None when the command must
run locally (no server, a stale one, or one that failed before starting it). `start_server()`
leaves one behind for next time. Standard library only: this runs before anything is imported.
"""
from __future__ import annotations

import json
import os
import signal
import socket
import sys

from grader.server import paths

CONNECT_SECONDS = 1.0
LOG_BYTES = 2**20


def served(argv: list[str]) -> int | None:
    """Run `vitgrade argv` in the warm server, if there is one that can; its exit code, or None."""
    try:
        path = paths.socket_path()
        conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        conn.settimeout(CONNECT_SECONDS)
        conn.connect(path)
    except (OSError, ValueError):
        return None
    with conn:
        umask = os.umask(0o022)
        os.umask(umask)
        request = {"argv": argv, "cwd": os.getcwd(), "env": dict(os.environ), "umask": umask,
                   "fingerprint": paths.fingerprint()}
        try:
            socket.send_fds(conn, [json.dumps(request).encode() + b"\n"], [0, 1, 2])
            conn.settimeout(None)
            replies = conn.makefile("r", encoding="utf-8")
            first = _message(replies)
        except (OSError, ValueError):
            return None
        except KeyboardInterrupt:  # ^C before the run started: nothing to stop, nothing to show
            return 130
        if "pid" not in first:
            return None  # stale, or the spare failed before running anything: run it here
        return _wait_for_exit(replies, int(first["pid"]))


def _wait_for_exit(replies, pid: int) -> int:
    """The spare's exit code; ^C is passed on to it, as a terminal would to a local run."""
    interrupts = 0
    while True:
        try:
            message = _message(replies)
            if "exit" in message:
                return int(message["exit"])
            if not message:
                print("vitgrade: the grading server stopped before finishing; "
                      f"run again with {paths.SERVER_VARIABLE}=0 to grade without it", file=sys.stderr)
                return 2
        except KeyboardInterrupt:
            interrupts += 1
            try:
                os.kill(pid, signal.SIGINT if interrupts == 1 else signal.SIGKILL)
            except OSError:
                return 130
        except (OSError, ValueError):
            return 2


def _message(replies) -> dict:
    line = replies.readline()
    return json.loads(line) if line else {}


def start_server(exercises: str | None = None) -> None:
    """Start a server in the background (detached, in its own session), unless one is running.
    `exercises`: a folder whose specs it prepares before listening. Never raises."""
    try:
        path = paths.socket_path()
        log_path = os.path.join(os.path.dirname(path), "server.log")
        if os.path.exists(log_path) and os.path.getsize(log_path) > LOG_BYTES:
            os.truncate(log_path, 0)  # a line per run: kept short
        log = open(log_path, "ab")  # noqa: SIM115
    except (OSError, ValueError):
        return
    import subprocess

    command = [sys.executable, "-m", "grader.server.daemon"] + (["--warm", exercises] if exercises else [])
    try:
        with log:
            subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                             cwd=os.path.dirname(paths.PACKAGE), start_new_session=True)
    except OSError:
        pass
