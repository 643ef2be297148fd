"""The zygote as a fork of the grading process, for a cold `vitgrade grade`.

A spawned zygote (`python -m grader.worker.zygote`) costs a second interpreter's start and numpy
import, ~80 ms of CPU that a one-core machine pays in wall time. A fork costs ~2 ms, and is as
clean a parent, on three conditions:

- it happens first, before anything of the course is read: no spec, compiled data, reference or
  course secret is in memory yet (`vitgrade grade` starts it before it resolves its settings;
  tests/test_forked_zygote.py checks the zygote's modules);
- numpy's BLAS runs one thread (the grader's default, process_setup.py): no thread pool is
  copied half-way;
- the child rubs out the environment it inherited before it answers (`rub_out_environment`):
  the grading process's variables may hold tokens (CI's, an LMS's), and a spawned zygote gets
  only INHERITED_ENV. Rubbing out, not only clearing: the bytes of the block the kernel put on
  the stack at exec (/proc/self/environ reads it) and of Python's copies are overwritten, so
  a worker that reads its own memory finds none of them.
"""
from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import sys
from pathlib import Path

from grader.process_setup import BLAS_THREADS

BYTES_DATA = sys.getsizeof(b"") - 1  # where a bytes object's characters start (CPython)


def possible(worker_env: dict) -> bool:
    """Whether this process may fork the zygote now: Linux, one thread (numpy's BLAS pool
    counted: /proc), and numpy's BLAS with the workers' settings (its import here would start
    no thread pool)."""
    return (sys.platform == "linux" and hasattr(os, "fork") and threads() == 1
            and all(os.environ.get(name) == worker_env[name] for name in BLAS_THREADS)
            and exec_blocks_known())


def exec_blocks_known() -> bool:
    """Whether /proc says where the exec blocks lie: without that the child could not rub out
    the environment, and a zygote that cannot must be spawned."""
    try:
        return all(0 < start <= end for start, end in map(exec_block, ("arg", "env")))
    except (OSError, ValueError, IndexError):
        return False


def threads() -> int:
    """This process's threads, native ones included (a BLAS pool); 0 if /proc cannot say."""
    try:
        status = Path("/proc/self/status").read_text()
    except OSError:
        return 0
    return next((int(line.split()[1]) for line in status.splitlines()
                 if line.startswith("Threads:")), 0)


def start(control_fd: int, environ: dict[str, str]) -> ForkedProcess | None:
    """Fork the zygote, answering on `control_fd`, with `environ` as its only environment;
    None if importing numpy started a thread after all (then spawn one)."""
    # both processes need these: imported once, before the fork, not once in each. `secrets`
    # (hashlib with OpenSSL, hmac, random: ~4.5 ms): the zygote's sandbox.py imports it for its
    # workers, the grading process for numpy.random's trials and the compiled data's keys
    import secrets  # noqa: F401

    import numpy  # noqa: F401 - imported once for both processes, as the zygote's point

    from grader.worker import capture, channel, linux, outcomes, processes  # noqa: F401

    if threads() != 1:
        return None
    pid = os.fork()
    if pid == 0:  # the zygote: never comes back
        code = 1
        try:
            become_zygote(control_fd, environ)
            from grader.worker import zygote

            zygote.main([str(control_fd)])
            code = 0
        finally:
            os._exit(code)
    return ForkedProcess(pid)


def become_zygote(control_fd: int, environ: dict[str, str]) -> None:
    """What `python -m grader.worker.zygote` would have been given: no stdin or stdout, no other
    descriptor than the control socket and stderr, the package's folder as its working folder,
    the default SIGINT handler (main() ignores it) and `environ` only."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    os.closerange(3, control_fd)
    os.closerange(control_fd + 1, os.sysconf("SC_OPEN_MAX") if hasattr(os, "sysconf") else 4096)
    os.chdir(Path(__file__).resolve().parents[2])
    rub_out_environment()
    os.environ.update(environ)
    retitle([sys.executable, "-m", "grader.worker.zygote", str(control_fd)])


def rub_out_environment() -> None:
    """Remove every environment variable and overwrite its bytes: Python's copies (os.environ's
    bytes, one object per name and value) and the block the kernel laid out at exec."""
    import posix

    copies = [text for pair in posix.environ.items() for text in pair]
    os.environ.clear()  # unsetenv each: the C `environ` array no longer points into the block
    for text in copies:
        if len(text) > 1:  # b"" and one-byte objects are shared singletons
            ctypes.memset(id(text) + BYTES_DATA, 0, len(text))
    del copies
    start, end = environment_block()
    if end > start:
        ctypes.memset(start, 0, end - start)


def retitle(argv: list[str]) -> None:
    """Show `argv` as this process's command line (/proc/<pid>/cmdline, what `ps` and a worker
    listing its processes read), as a spawned zygote's is: not the grading command's, with its
    submission and results paths. The block the kernel laid out is overwritten in place; a
    longer title is cut to the module's name."""
    start, end = exec_block("arg")
    title = b"\0".join(part.encode() for part in argv) + b"\0"
    if len(title) > end - start:
        title = b"grader.worker.zygote\0"[:end - start]
    ctypes.memset(start, 0, end - start)
    ctypes.memmove(start, title, len(title))


def environment_block() -> tuple[int, int]:
    """(start, end) addresses of the environment the kernel gave this process at exec."""
    return exec_block("env")


def exec_block(which: str) -> tuple[int, int]:
    """(start, end) of the command line ("arg") or environment ("env") the kernel laid out at
    exec: /proc/self/stat's fields 48-49 and 50-51 (Linux 3.5)."""
    fields = Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()
    first = {"arg": 48, "env": 50}[which] - 3  # fields[0] is field 3 (state)
    return int(fields[first]), int(fields[first + 1])


class ForkedProcess:
    """The subprocess.Popen calls the zygote's handle makes, for a process we forked."""

    def __init__(self, pid: int):
        self.pid, self.returncode = pid, None

    def poll(self) -> int | None:
        if self.returncode is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None and timeout is not None:
            pidfd = os.pidfd_open(self.pid)
            try:
                import select

                if not select.select([pidfd], [], [], timeout)[0]:
                    raise subprocess.TimeoutExpired(["zygote"], timeout)
            finally:
                os.close(pidfd)
        if self.returncode is None:
            self.returncode = os.waitstatus_to_exitcode(os.waitpid(self.pid, 0)[1])
        return self.returncode

    def kill(self) -> None:
        if self.returncode is None:
            os.kill(self.pid, signal.SIGKILL)
