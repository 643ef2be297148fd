"""The grading side's handle on a zygote (zygote.py): start it, ask it to fork and reap workers.

One zygote per grading process (`get_zygote`), started as early as possible (`prestart_zygote`)
so that numpy imports there while pytest starts here; a batch job owns one of its own.
"""

from __future__ import annotations

import atexit
import json
import os
import select
import shlex
import socket
import subprocess
import sys
import threading
from pathlib import Path

from grader.worker import forked_zygote

# else each worker is spawned as `python -m grader.worker.serve`
FORK_AVAILABLE = hasattr(os, "fork")
# A command prefix for the zygote (so every worker): an OS sandbox around it, split as a shell
# would ("bwrap --unshare-all ... --"). docs/security.md has one that works.
SANDBOX_VARIABLE = "VITGRADE_SANDBOX"
READY_TIMEOUT = 60.0  # seconds for the zygote to import numpy (a cold laptop can be slow)
CONTROL_TIMEOUT = 30.0  # seconds for the zygote to answer a fork or reap request

# What the zygote (and so every worker) inherits of the grader's environment: enough to find
# Python's packages the way the grader did, nothing that could carry a secret.
INHERITED_ENV = (
    "PATH", "HOME", "LANG", "LC_ALL", "LC_CTYPE", "PYTHONPATH", "PYTHONHOME", "PYTHONNOUSERSITE",
    "VIRTUAL_ENV", "CONDA_PREFIX", "LD_LIBRARY_PATH", "TMPDIR", "SYSTEMROOT",
    "VITGRADE_NO_NAMESPACES",  # tests: behave as if unshare were refused (worker/hiding.py)
)  # fmt: skip
# numpy's BLAS must not start threads in a process that forks; no plotting window
WORKER_ENV = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
              "MPLBACKEND": "Agg"}


class ZygoteError(RuntimeError):
    """The zygote could not start or stopped answering: the grader's environment, not a student."""


class Zygote:
    """Handle on one zygote process. Thread-safe; starting it does not wait for it.

    `forked`: a fork of this process (forked_zygote.py), where that is as clean as a new
    interpreter; else, and by default, `python -m grader.worker.zygote`."""

    def __init__(self, forked: bool = False):
        sandbox = shlex.split(os.environ.get(SANDBOX_VARIABLE, ""))
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            self.process = (forked_zygote.start(theirs.fileno(), inherited_env())
                            if forked and not sandbox and forked_zygote.possible(WORKER_ENV)
                            else None)
            if self.process is None:
                self.process = start_module(["grader.worker.zygote", str(theirs.fileno())],
                                            [theirs.fileno()], prefix=sandbox)
        except BaseException:
            ours.close()
            raise
        finally:
            theirs.close()
        self._control = ours
        self._lock = threading.Lock()
        self.owner = os.getpid()
        self._ready = False

    @property
    def alive(self) -> bool:
        return self.process.poll() is None and self._control.fileno() != -1

    def wait_ready(self, timeout: float = READY_TIMEOUT) -> None:
        """Block until the zygote has imported numpy."""
        with self._lock:
            self._wait_ready(timeout)

    def fork_worker(self, request: dict, fds: list[int]) -> int:
        """A new worker for `request`; its socket and output file go along as fds."""
        return self._ask({"op": "fork", **request}, fds)["pid"]

    def reap(self, pid: int) -> int:
        """Kill the worker and everything it started, wait for it; its wait status."""
        return self._ask({"op": "reap", "pid": pid})["status"]

    def renew(self, pid: int) -> None:
        """Kill what the worker runs (its process answering calls), not the worker itself."""
        self._ask({"op": "renew", "pid": pid})

    def loaded_modules(self) -> list[str]:
        """Names of the modules the zygote imported (tests check it holds nothing it should not)."""
        return self._ask({"op": "modules"})["modules"]

    def close(self) -> None:
        """Hang up: the zygote kills its workers and exits. Safe to call twice."""
        with self._lock:
            self._control.close()
        if os.getpid() == self.owner:
            try:
                wait_exited(self.process, 5)
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
                self._control.close()  # a late reply would answer the next request
                raise ZygoteError(f"the zygote stopped answering ({exc})") from None
        if "error" in reply:
            raise ZygoteError(f"the zygote refused {message['op']!r}: {reply['error']}")
        return reply

    def _wait_ready(self, timeout: float) -> None:
        if self._ready:
            return
        try:
            reply = self._receive(timeout)
        except OSError as exc:
            self._control.close()
            raise ZygoteError(f"the zygote did not start ({exc})") from None
        if reply.get("op") != "ready":
            raise ZygoteError(f"the zygote said {reply!r} instead of ready")
        self._ready = True

    def _receive(self, timeout: float) -> dict:
        self._control.settimeout(timeout)
        data = self._control.recv(2**20)
        if not data:
            code = self.process.poll()
            raise ZygoteError(f"the zygote exited (code {code}); its error, if any, is on stderr")
        return json.loads(data)


_shared: Zygote | None = None
_shared_lock = threading.Lock()


def prestart_zygote(forked: bool = False) -> Zygote | None:
    """Start the process-wide zygote now, without waiting for it: numpy imports meanwhile.
    `forked` (`vitgrade grade`, which calls it before it reads anything): a fork of this
    process, which spares a one-core machine a second interpreter's start."""
    return get_zygote(forked) if FORK_AVAILABLE else None


def get_zygote(forked: bool = False) -> Zygote:
    """The process-wide zygote, started if there is none (or it died, or we are a forked copy)."""
    global _shared
    with _shared_lock:
        if _shared is None or _shared.owner != os.getpid() or not _shared.alive:
            if _shared is None:
                atexit.register(close_shared_zygote)
            _shared = Zygote(forked)
        return _shared


def close_shared_zygote() -> None:
    if _shared is not None and _shared.owner == os.getpid():
        _shared.close()


def wait_exited(process: subprocess.Popen, timeout: float) -> int:
    """`process.wait(timeout)`, woken by the exit itself: Popen.wait with a timeout polls with
    sleeps that double up to 50 ms, so a zygote that ends 3 ms after the hang-up was found ~8 ms
    later on an idle machine, and up to 40 ms later on a loaded one, at the end of every
    `vitgrade grade`. A pidfd (Linux 5.3) is readable once the process has ended."""
    try:
        pidfd = os.pidfd_open(process.pid)
    except (AttributeError, OSError):  # not Linux, an old kernel, or already reaped
        return process.wait(timeout)
    try:
        ended = select.select([pidfd], [], [], timeout)[0]
    finally:
        os.close(pidfd)
    return process.wait(timeout if ended else 0)  # reaps it; TimeoutExpired once the time is out


def start_module(args: list[str], fds: list[int], prefix=()) -> subprocess.Popen:
    """`python -m *args` (after `prefix`) given `fds`, INHERITED_ENV and WORKER_ENV, without
    stdin or stdout, run from the folder holding the `grader` package: `-m` then finds the same
    grader as this process."""
    return subprocess.Popen(
        [*prefix, sys.executable, "-m", *args], pass_fds=fds, env=inherited_env(),
        cwd=Path(__file__).resolve().parents[2], stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL)


def inherited_env() -> dict[str, str]:
    """The zygote's environment: INHERITED_ENV's of ours, and WORKER_ENV."""
    return {**{name: os.environ[name] for name in INHERITED_ENV if name in os.environ},
            **WORKER_ENV}
