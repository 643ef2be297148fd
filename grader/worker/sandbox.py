"""Confining a worker before any student code runs: its user, privileges, limits, descriptors,
in the order `confine` takes them. What this does and does not stop: docs/security.md.
"""

from __future__ import annotations

import contextlib
import os
import resource
import secrets
import socket
import sys
from pathlib import Path

from grader.worker import hiding, linux
from grader.worker.processes import process_table

SOCKET_FD = 3  # where the worker keeps its socket once every other descriptor is closed
CRASH_EXIT = 70  # the worker's own failure (not the student's), as the grading side sees it
# As root, a worker becomes a user drawn at random from WORKER_UID_BASE + [0, 2**27): a user of
# its own, which owns no file and which no other worker (of this or any other grading run, in
# any pid namespace) shares, so "every process of that user" is exactly what the submission
# started. Above the ranges systemd hands out (containers end at 0x6FFFFFFF), below 2**31.
# Where such a user cannot exist (a user namespace mapping 65536 ids), `nobody` instead.
WORKER_UID_BASE = 2_000_000_000
WORKER_UIDS = 2**27
NOBODY = 65534


def confine(sock_fd: int, out_fd: int, request: dict, zygote_pid: int | None) -> socket.socket:
    """Confine this process, step by step -> the socket, moved to SOCKET_FD."""
    os.setsid()  # a process group of its own: the grading side kills the whole group
    workdir = request["workdir"]
    # while root may still mount: the submission's folder may hold files it opens
    hiding.hide(request.get("hide", []), keep=[workdir, str(Path(request["submission"]).parent)],
                ipc_bytes=request["memory_mb"] * 2**20)
    uid = drop_privileges(workdir)
    with contextlib.suppress(OSError):  # refused (a seccomp filter): student code is refused too
        linux.join_new_session_keyring()  # as its user: the grader's keys out of reach
    hiding.check_readable()  # without a view of its own: which secrets its user can still read
    if zygote_pid is not None:
        linux.die_with_parent(zygote_pid, CRASH_EXIT)  # after the user changed: that clears it
    linux.prctl(linux.PR_SET_NO_NEW_PRIVS, 1)  # no privileges through exec (sudo, file caps)
    hiding.refuse_host_ipc()  # no IPC namespace of its own: no System V IPC at all
    linux.not_dumpable()
    os.chdir(workdir)  # a fresh empty folder: no stray files, nothing of the grader's
    scrub_environment(workdir)
    limit_resources(request, dedicated_user=uid is not None and uid != NOBODY)
    sock = keep_only(sock_fd, out_fd)
    guard_forks()
    hide_the_grader()
    return sock


def drop_privileges(workdir: str) -> int | None:
    """As root, become an unprivileged user of this worker's own -> its uid; None when not root.

    It has no groups, owns only `workdir` and keeps no capability (docs/security.md, "A user of
    its own"). Where no other user exists (root of a user namespace mapping one uid), it stays
    uid 0 with no capability at all.
    """
    if not hasattr(os, "setresuid") or os.geteuid() != 0:
        return None
    for uid in (WORKER_UID_BASE + secrets.randbelow(WORKER_UIDS), NOBODY):
        try:
            os.chown(workdir, uid, uid)
            os.chmod(workdir, 0o700)
            os.setgroups([])
            os.setresgid(uid, uid, uid)
            os.setresuid(uid, uid, uid)  # every capability goes with uid 0 (no PR_SET_KEEPCAPS)
        except OSError:  # a user namespace that does not map this uid: the next one
            continue
        return uid
    linux.drop_all_capabilities()
    return None


def scrub_environment(workdir: str) -> None:
    """A minimal environment: nothing of the grader's (tokens, paths) reaches student code."""
    path = os.environ.get("PATH", os.defpath)
    os.environ.clear()
    os.environ.update(PATH=path, HOME=workdir, TMPDIR=workdir, LANG="C.UTF-8", MPLBACKEND="Agg",
                      OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1",
                      PYTHONDONTWRITEBYTECODE="1")
    sys.dont_write_bytecode = True  # no __pycache__ in the student's folder from their imports
    if "tempfile" in sys.modules:  # it may have cached the zygote's temporary folder
        sys.modules["tempfile"].tempdir = None


def limit_resources(request: dict, dedicated_user: bool) -> None:
    """Address space, file size, processes (soft = hard: student code cannot raise them), no core.

    RLIMIT_NPROC counts every process and thread of the real user. A user of the worker's own
    has only the worker; otherwise the user's other processes count too, so the limit is what
    they run now plus `max_processes`.
    """
    set_limit(resource.RLIMIT_AS, request["memory_mb"] * 2**20)
    set_limit(resource.RLIMIT_CORE, 0)  # a segfault must not write a core file
    set_limit(resource.RLIMIT_FSIZE, request["file_mb"] * 2**20)
    others = 0 if dedicated_user else tasks_of_user(os.getuid())
    if others is not None:
        set_limit(resource.RLIMIT_NPROC, others + request["max_processes"])


def set_limit(kind: int, limit: int) -> None:
    _soft, hard = resource.getrlimit(kind)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(kind, (limit, limit))


def tasks_of_user(uid: int) -> int | None:
    """Processes and threads whose real user is `uid`, from /proc; None without /proc."""
    if not os.path.isdir("/proc/self/task"):
        return None
    count = 0
    for pid, (_ppid, _state, owner) in process_table().items():
        if owner == uid:
            with contextlib.suppress(OSError):  # it ended meanwhile
                count += len(os.listdir(f"/proc/{pid}/task"))
    return count


def keep_only(sock_fd: int, out_fd: int) -> socket.socket:
    """fd 0 is /dev/null (input() fails at once), 1 and 2 the output file, SOCKET_FD the socket;
    every other descriptor (the zygote's, other workers', the grader's) is closed."""
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(out_fd, 1)
    os.dup2(out_fd, 2)
    if sock_fd != SOCKET_FD:
        os.dup2(sock_fd, SOCKET_FD, inheritable=False)
    os.set_inheritable(SOCKET_FD, False)
    os.closerange(SOCKET_FD + 1, resource.getrlimit(resource.RLIMIT_NOFILE)[0])
    return socket.socket(fileno=SOCKET_FD)


# -- forks of the worker --------------------------------------------------------------------------

_worker_pid = os.getpid()
_serving_fork = False  # set while fork_server forks: its child keeps the socket


def fork_server() -> int:
    """fork(2) for the process that answers calls (serve.py): unlike a fork of student code,
    its child keeps the socket and speaks for the worker."""
    global _serving_fork, _worker_pid
    _serving_fork = True
    try:
        pid = os.fork()
    finally:
        _serving_fork = False
    if pid == 0:
        _worker_pid = os.getpid()
    return pid


def guard_forks() -> None:
    """A process the student forks never speaks for the worker: its copy of the socket becomes
    /dev/null, and if it returns from student code it exits (quit_if_forked)."""
    global _worker_pid
    _worker_pid = os.getpid()
    os.register_at_fork(after_in_child=_silence_socket)


def _silence_socket() -> None:
    if _serving_fork:
        return
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, SOCKET_FD, inheritable=False)
    os.close(null)


def quit_if_forked() -> None:
    """In a process forked by student code (os.fork, or libc's through ctypes): exit now."""
    if os.getpid() != _worker_pid:
        os._exit(0)


# -- the grader's own modules ----------------------------------------------------------------------


class _GraderHidden:
    """A meta path finder that refuses the grader's answer-bearing modules inside the worker."""

    @staticmethod
    def find_spec(name, path=None, target=None):
        if name.startswith("grader.") and not _allowed(name):
            raise ImportError(f"{name} is part of the grader and cannot be imported by a "
                              "submission: write the code yourself")
        return None


def hide_the_grader() -> None:
    """Make `import grader.reference` (and checks, specs, ...) fail for student code. Only a
    deterrent: expected values never exist in this process (docs/security.md)."""
    for name in [m for m in sys.modules if m.startswith("grader.") and not _allowed(m)]:
        del sys.modules[name]  # a cached module would bypass the finder
    if "exec" in vars(sys.modules.get("dataclasses", sys)):  # grader/dataclass_code.py's
        del sys.modules["dataclasses"].exec  # kept methods go with the grader's modules
    sys.meta_path.insert(0, _GraderHidden())


def _allowed(name: str) -> bool:
    return name == "grader" or any(name == a or name.startswith(a + ".")
                                   for a in hiding.GRADER_ALLOWED)
