"""The Linux process controls the grader uses, in one place (elsewhere each is a no-op).

prctl(2): whether a process may be ptraced or dumped, death with its parent, the child
subreaper, no new privileges; capset(2) to drop every capability; unshare(2), setns(2) and
mount(2) for the worker's own file system view, network, IPC and processes (hiding.py); keyctl(2)
for a session keyring of its own.
"""

from __future__ import annotations

import ctypes
import errno
import os
import platform
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


def die_with_parent(parent_pid: int, exit_code: int) -> None:
    """Ask the kernel to kill this process when its parent dies; exit now if it already has."""
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    # 0: the parent is outside this process's PID namespace (pid 1 of its own), where it cannot
    # be told from a subreaper; the grader's hanging up ends such an orphan
    if os.getppid() not in (parent_pid, 0):
        os._exit(exit_code)


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


def remove_sysv_ipc(uid: int) -> int:
    """Remove every System V IPC object (shared memory, message queue, semaphore set) of this
    IPC namespace that `uid` owns or created -> how many (a segment still attached goes with
    its last detach)."""
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
            if uid in owners and remove(int(row[columns[id_column]])) == 0:
                removed += 1
    return removed


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
