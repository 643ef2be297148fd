"""The Linux process controls the grader uses, in one place (elsewhere each is a no-op).

prctl(2): whether a process may be ptraced or dumped, death with its parent, the child
subreaper, no new privileges; capset(2) to drop every capability; unshare(2), setns(2) and
mount(2) for the worker's own file system view, network, IPC and processes (hiding.py); keyctl(2)
for a session keyring of its own; a seccomp filter refusing System V IPC where it is the host's.
"""

from __future__ import annotations

import ctypes
import errno
import os
import platform
import select
import signal
import sys

PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
PR_CAPBSET_DROP = 24
PR_SET_SECUREBITS = 28
PR_SET_CHILD_SUBREAPER = 36
PR_SET_NO_NEW_PRIVS = 38
# SECBIT_NOROOT, NO_SETUID_FIXUP, KEEP_CAPS_LOCKED, NO_CAP_AMBIENT_RAISE, each locked: uid 0
# regains no capability through exec, ever
SECURE_NOROOT = 0xEF
CLONE_NEWNS = 0x00020000  # unshare(2): a mount namespace of this process's own
CLONE_NEWNET = 0x40000000  # and a network namespace: only a loopback interface
CLONE_NEWIPC, CLONE_NEWUTS = 0x08000000, 0x04000000  # System V IPC, host name: its own too
CLONE_NEWPID = 0x20000000  # its children: the first is pid 1 of a PID namespace of its own
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 0x1, 0x2, 0x4, 0x8
MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 0x20, 0x1000, 0x4000, 0x40000
_CAPABILITY_VERSION_3 = 0x20080522
KEYCTL_JOIN_SESSION_KEYRING = 1
# keyctl(2)'s system call number (glibc has no wrapper), by architecture
SYS_KEYCTL = {"x86_64": 250, "i386": 288, "i686": 288, "aarch64": 219, "riscv64": 219,
              "armv7l": 311, "ppc64le": 271, "s390x": 281}.get(platform.machine())

LINUX = sys.platform.startswith("linux")
_libc = ctypes.CDLL(None, use_errno=True) if LINUX else None


def prctl(option: int, value: int) -> None:
    if _libc is not None:
        _libc.prctl(option, value, 0, 0, 0)


def not_dumpable() -> None:
    """No process of the same user may ptrace this one or read its memory through /proc."""
    prctl(PR_SET_DUMPABLE, 0)


_own_pidfd: list[tuple[int, int]] = []  # (pid, pidfd) of the process that forks workers


def open_own_pidfd() -> None:
    """Keep a pidfd of this process (Linux 5.3), inherited by its children: `die_with_parent`
    tells from it whether this process still runs, where getppid() cannot (a child in a PID
    namespace of its own sees 0 for its parent, alive or dead)."""
    if LINUX and not _own_pidfd and hasattr(os, "pidfd_open"):
        try:
            fd = os.pidfd_open(os.getpid())
        except OSError:  # an older kernel: getppid() only
            return
        _own_pidfd.append((os.getpid(), fd))


def die_with_parent(parent_pid: int, exit_code: int) -> None:
    """Ask the kernel to kill this process when its parent dies; exit now if it already has
    (between this process's fork and now, when the kernel would not kill it any more)."""
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    pidfd = next((fd for pid, fd in _own_pidfd if pid == parent_pid), None)
    if pidfd is not None:  # readable once the process it refers to has ended
        if _pidfd_ended(pidfd):
            os._exit(exit_code)
        return
    # 0: the parent is outside this process's PID namespace (pid 1 of its own), where it cannot
    # be told from a subreaper; the grader's hanging up ends such an orphan
    if os.getppid() not in (parent_pid, 0):
        os._exit(exit_code)


def _pidfd_ended(pidfd: int) -> bool:
    poller = select.poll()
    poller.register(pidfd, select.POLLIN)
    return bool(poller.poll(0))


class _CapHeader(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]


class _CapData(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32),
                ("inheritable", ctypes.c_uint32)]


def drop_all_capabilities() -> None:
    """Stay uid 0 but with no capability, none to regain by exec (bounding set, securebits)."""
    try:
        with open("/proc/sys/kernel/cap_last_cap") as handle:
            last = int(handle.read())
    except (OSError, ValueError):
        last = 63
    for capability in range(last + 1):
        prctl(PR_CAPBSET_DROP, capability)
    prctl(PR_SET_SECUREBITS, SECURE_NOROOT)
    # no capability left, effective or permitted; nothing passes through exec
    header, data = _CapHeader(_CAPABILITY_VERSION_3, 0), (_CapData * 2)()
    if _libc is None or _libc.capset(ctypes.byref(header), data) != 0:
        raise PermissionError(f"capset failed (errno {ctypes.get_errno()})")


def unshare(flags: int) -> None:
    """unshare(2); OSError (EPERM, EINVAL, ENOSYS) when the kernel or a seccomp filter says no."""
    _checked("unshare", lambda: _libc.unshare(flags))


def setns(fd: int, nstype: int) -> None:
    """setns(2): back into the namespace `fd` refers to (/proc/self/ns/mnt opened earlier)."""
    _checked("setns", lambda: _libc.setns(fd, nstype))


def join_new_session_keyring() -> None:
    """keyctl(KEYCTL_JOIN_SESSION_KEYRING, NULL): leave the inherited session keyring (the
    grader's: CI runners and sudo put secrets in one) for a new, empty, anonymous one."""
    if SYS_KEYCTL is None:
        raise OSError(errno.ENOSYS, "keyctl's number on this machine is not known")
    _checked("keyctl", lambda: 0 if _libc.syscall(SYS_KEYCTL, KEYCTL_JOIN_SESSION_KEYRING,
                                                  None) > 0 else -1)


IPC_RMID = 0
# /proc/sysvipc/<kind>: the column of each object's id, and how to remove one by it
_IPC_KINDS = {"shm": ("shmid", lambda i: _libc.shmctl(i, IPC_RMID, None)),
              "msg": ("msqid", lambda i: _libc.msgctl(i, IPC_RMID, None)),
              "sem": ("semid", lambda i: _libc.semctl(i, 0, IPC_RMID))}


def remove_sysv_ipc(owned) -> int:
    """Remove every System V IPC object (shared memory, message queue, semaphore set) of this
    IPC namespace whose owner or creator uid `owned(uid)` is true of -> how many (a segment
    still attached goes with its last detach)."""
    removed = 0
    for kind, (id_column, remove) in _IPC_KINDS.items():
        try:
            with open(f"/proc/sysvipc/{kind}") as table:
                header, *rows = [line.split() for line in table]
        except (OSError, ValueError):
            continue
        columns = {name: index for index, name in enumerate(header)}
        for row in rows:
            owners = {int(row[columns[name]]) for name in ("uid", "cuid") if name in columns}
            if any(owned(owner) for owner in owners) and remove(int(row[columns[id_column]])) == 0:
                removed += 1
    return removed


PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 22, 2
SECCOMP_RET_ALLOW, SECCOMP_RET_ERRNO = 0x7FFF0000, 0x00050000
# BPF opcodes: load a word of seccomp_data, jump if equal / greater or equal, return
_LOAD, _JEQ, _JGE, _RET = 0x20, 0x15, 0x35, 0x06
# each architecture's AUDIT_ARCH and its System V IPC calls: shmget shmat shmctl shmdt, msgget
# msgsnd msgrcv msgctl, semget semop semctl semtimedop (x86_64: and every x32 call, numbered from
# 0x40000000, which has its own)
SYSV_IPC_CALLS = {
    "x86_64": (0xC000003E, (29, 30, 31, 67, 68, 69, 70, 71, 64, 65, 66, 220), 0x40000000),
    "aarch64": (0xC00000B7, tuple(range(186, 198)), None),
}.get(platform.machine())


class _SockFilter(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint16), ("jt", ctypes.c_uint8), ("jf", ctypes.c_uint8),
                ("k", ctypes.c_uint32)]


class _SockFprog(ctypes.Structure):
    _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(_SockFilter))]


def sysv_ipc_filter() -> list[tuple[int, int, int, int]]:
    """The seccomp program of `deny_sysv_ipc`, as (code, jt, jf, k): EPERM for every System V
    IPC call, and for every call of another architecture's numbering (a 64-bit process may make
    32-bit calls, where these have other numbers and ipc(2) multiplexes them all)."""
    arch, calls, foreign_from = SYSV_IPC_CALLS
    tests = [(_JGE, foreign_from)] * (foreign_from is not None) + [(_JEQ, nr) for nr in calls]
    deny = 3 + len(tests) + 1  # the index of the last instruction
    program = [(_LOAD, 0, 0, 4), (_JEQ, 0, deny - 2, arch), (_LOAD, 0, 0, 0)]  # arch, then nr
    for index, (code, value) in enumerate(tests, start=3):
        program.append((code, deny - index - 1, 0, value))
    return program + [(_RET, 0, 0, SECCOMP_RET_ALLOW),
                      (_RET, 0, 0, SECCOMP_RET_ERRNO | errno.EPERM)]


def deny_sysv_ipc() -> None:
    """From now on System V IPC (shared memory, message queues, semaphores) fails with EPERM in
    this process and all it starts: none of it can pin memory outside RLIMIT_AS or outlive it.
    Needs PR_SET_NO_NEW_PRIVS (or root); OSError where seccomp or this machine is unknown."""
    if SYSV_IPC_CALLS is None:
        raise OSError(errno.ENOSYS, f"System V IPC's calls on {platform.machine()} are not known")
    program = sysv_ipc_filter()
    instructions = (_SockFilter * len(program))(*program)
    fprog = _SockFprog(len(program), instructions)
    _checked("prctl", lambda: _libc.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER,
                                          ctypes.byref(fprog), 0, 0))


def mount(source: str | None, target: str, fstype: str | None, flags: int,
          data: str | None = None) -> None:
    """mount(2); OSError naming `target` when it fails."""
    encoded = [None if v is None else os.fsencode(v) for v in (source, target, fstype, data)]
    _checked("mount", lambda: _libc.mount(encoded[0], encoded[1], encoded[2],
                                          ctypes.c_ulong(flags), encoded[3]), target)


def _checked(name: str, call, target: str | None = None) -> None:
    """Run the libc `call`; OSError with its errno (and `target`) when it fails, ENOSYS off
    Linux."""
    if _libc is None:
        raise OSError(errno.ENOSYS, f"{name} is Linux's", target)
    if call() != 0:
        error = ctypes.get_errno()
        raise OSError(error, os.strerror(error), target)
