"""Hiding by allowlist: as root, a worker sees a file system of its own making, and no network.

As root, the zygote forks each worker as pid 1 of a PID namespace of its own (`fork`), and before
it drops privileges the worker unshares its mount, network, IPC and UTS namespaces (a new network
namespace has only a loopback interface, down; the inherited socket pair to the grader keeps
working; System V IPC objects it makes die with it, their memory bounded by --memory-mb) and
chroots into a tmpfs holding only what grading needs (`view_plan`), with a /proc of its PID
namespace. Inside what it binds, the request's "hide" paths
(grader/secret_paths.py) are covered again. The mounts belong to root's namespace: the worker,
unprivileged by then, cannot undo them. Where namespaces cannot be made (a seccomp filter, gVisor,
VITGRADE_NO_NAMESPACES=1), secrecy rests on file permissions, and `check_readable` lists the
secrets the worker's user can still read; not root, not Linux: nothing is hidden. `report()` says
which mechanism is in force. What the view holds, per deployment: docs/security.md.
"""

from __future__ import annotations

import functools
import os
import socket
import sys

from grader.worker import linux

# What a submission may import of the grader: the worker itself, `check` (a no-op in here) and
# the package. The rest holds the reference answers and the specs with their hidden cases.
GRADER_ALLOWED = ("grader.worker", "grader.notebook_check")

NO_NAMESPACES = "VITGRADE_NO_NAMESPACES"  # "1": behave as if unshare were refused (tests)
SYSTEM = ("/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/usr/bin", "/usr/sbin",
          "/usr/lib", "/usr/lib32", "/usr/lib64", "/usr/libexec", "/etc/ld.so.cache",
          "/etc/localtime")
DEVICES = ("null", "zero", "full", "random", "urandom")
DEVICE_LINKS = {"fd": "/proc/self/fd", "stdin": "/proc/self/fd/0", "stdout": "/proc/self/fd/1",
                "stderr": "/proc/self/fd/2"}
# the new root (folders and mount points only), an emptied package, the worker's own /tmp
ROOT_TMPFS, EMPTY_TMPFS = "mode=0755,size=1m,nr_inodes=4096", "mode=0755,size=16k,nr_inodes=256"
TMP_TMPFS = "mode=1777,size=64m,nr_inodes=4096"
READ_ONLY = linux.MS_RDONLY | linux.MS_NOSUID | linux.MS_NODEV
SEALED = READ_ONLY | linux.MS_NOEXEC
BINDS = ("ro", "rw")  # the kinds of entry whose content is a real folder's

NOTHING_HIDDEN = {"mechanism": "none", "seen": [], "hidden": [], "kept": [], "readable": []}
_outcome: dict = {**NOTHING_HIDDEN, "reason": "hiding was not tried"}
_secrets: list[str] = []  # to check as the worker's user, when the view could not be made
_own_pid_ns: list[int] = []  # the zygote's PID namespace (an fd), to fork the next worker in
_own_ipc: list[bool] = []  # [True] once this worker has an IPC namespace of its own
IPC_REFUSED = "System V IPC is refused to student code (a seccomp filter)"


def fork() -> int:
    """The zygote's os.fork: as root with namespaces, the child is pid 1 of a PID namespace of its
    own (it sees, and can signal, only what it starts, and all of that dies with it); this
    process's later children are born in its own namespace again."""
    if not (linux.LINUX and os.geteuid() == 0 and os.environ.get(NO_NAMESPACES) != "1"):
        return os.fork()
    try:
        if not _own_pid_ns:
            _own_pid_ns.append(os.open("/proc/self/ns/pid", os.O_RDONLY | os.O_CLOEXEC))
        linux.unshare(linux.CLONE_NEWPID)  # for the children to come
    except OSError:
        return os.fork()  # the worker sees it is not pid 1, and says so
    try:
        pid = os.fork()
    except OSError:
        linux.setns(_own_pid_ns[0], linux.CLONE_NEWPID)
        raise
    if pid:
        linux.setns(_own_pid_ns[0], linux.CLONE_NEWPID)
    return pid


def _in_new_pid_ns() -> bool:
    return os.getpid() == 1


def report() -> dict:
    """What the last `hide` did, for the load report: the fields of outcomes.Hiding, as a dict."""
    return {key: list(value) if type(value) is list else value for key, value in _outcome.items()}


def hide(paths: list[str], keep: list[str], ipc_bytes: int = 2**30) -> dict:
    """As root, move this process into a file system view of its own (the module's docstring)
    with `keep` ([working folder, submission's folder]) bound in it, read-write as their
    permissions say, and into network and IPC namespaces of its own, where System V shared
    memory holds at most `ipc_bytes` -> report()."""
    global _outcome
    _own_ipc.clear()
    _secrets[:] = [path for path in dict.fromkeys(paths) if path != "/"]
    _outcome = {**_outcome, **_hide(_secrets, _folders(keep), ipc_bytes)}
    return report()


def check_readable() -> None:
    """With permissions only, as the worker's user: which secrets it can still read."""
    if _outcome["mechanism"] == "permissions":
        _outcome["readable"] = [path for path in _secrets if _readable(path)]


def refuse_host_ipc() -> None:
    """Without an IPC namespace of its own, System V IPC is the host's: shared memory made there
    and never attached is bounded by no limit of the worker's (only by the host's shmall) and
    outlives it. Refuse it all (linux.deny_sysv_ipc) before student code runs; where seccomp is
    refused, say so in report()'s reason. After PR_SET_NO_NEW_PRIVS."""
    if _own_ipc:
        return
    try:
        linux.deny_sysv_ipc()
        note = IPC_REFUSED
    except OSError as exc:
        note = (f"System V IPC is the host's and its shared memory is not bounded while it runs "
                f"(a seccomp filter was refused: {exc.strerror})")
    _outcome["reason"] = "; ".join(part for part in (_outcome["reason"], note) if part)


def _readable(path: str) -> bool:
    if os.path.isdir(path):
        return os.access(path, os.R_OK) or os.access(path, os.X_OK)
    return os.access(path, os.R_OK)


def _hide(secrets: list[str], keep: list[str], ipc_bytes: int) -> dict:
    outcome = {**NOTHING_HIDDEN, "hidden": [], "kept": [], "reason": ""}  # lists of its own
    if not linux.LINUX:
        return {**outcome, "reason": "not on Linux"}
    if os.geteuid() != 0:
        return {**outcome, "reason": "not running as root"}
    outcome["mechanism"] = "permissions"
    if os.environ.get(NO_NAMESPACES) == "1":
        return {**outcome, "reason": f"namespaces turned off ({NO_NAMESPACES}=1)"}
    try:  # to come back to if the view cannot be made
        original = os.open("/proc/self/ns/mnt", os.O_RDONLY | os.O_CLOEXEC)
    except OSError as exc:
        return {**outcome, "reason": f"no /proc/self/ns/mnt ({exc.strerror})"}
    try:
        try:
            linux.unshare(linux.CLONE_NEWNS | linux.CLONE_NEWNET)
        except OSError as exc:
            return {**outcome, "reason": f"unshare(CLONE_NEWNS | CLONE_NEWNET) refused: "
                                         f"{exc.strerror}"}
        try:  # SysV IPC objects it makes die with it; refused, keep the view and say so
            linux.unshare(linux.CLONE_NEWIPC | linux.CLONE_NEWUTS)
            socket.sethostname("vitgrade")
        except OSError as exc:
            outcome["reason"] = ("System V IPC and the host name are the host's (the zygote "
                                 "removes what its user leaves there): unshare(CLONE_NEWIPC | "
                                 f"CLONE_NEWUTS) refused: {exc.strerror}")
        else:
            outcome["reason"] = _limit_ipc(ipc_bytes)
            _own_ipc.append(True)
        try:
            linux.mount(None, "/", None, linux.MS_REC | linux.MS_PRIVATE)  # nothing leaks out
            entries = [*view_plan(), *(("rw", path, None) for path in keep)]
            entries += _covers(secrets, entries, outcome)
            # The old root stays in the namespace, below, out of reach: the worker keeps no
            # capability to chroot again and no descriptor of a folder, and a chrooted process
            # may not make a user namespace that would give it one. (pivot_root and detaching
            # the old root instead cost 10 ms of every worker: an RCU grace period.)
            notes = [outcome["reason"]] if outcome["reason"] else []
            os.chroot(_build(keep[0], entries, notes))
            outcome["reason"] = "; ".join(notes)
            os.chdir("/")
        except OSError as exc:  # what the worker needs could not be bound: permissions only
            linux.setns(original, linux.CLONE_NEWNS)
            where = f" ({exc.filename})" if exc.filename else ""
            return {**outcome, "hidden": [], "kept": [],
                    "reason": f"the file system view failed{where}: {exc.strerror}"}
    finally:
        os.close(original)
    seen = [path for kind, path, _ in entries  # the working folder's name changes every time
            if (kind in BINDS or kind in ("proc", "tmp")) and path != keep[0]]
    return {**outcome, "mechanism": "view", "seen": list(dict.fromkeys(seen))}


def _limit_ipc(most: int) -> str:
    """In the worker's new IPC namespace (its /proc/sys/kernel files are that namespace's): shared
    memory at most `most` bytes in all, whether attached (and counted by RLIMIT_AS) or not; 16
    message queues of 16 KB -> "" or what was not bounded."""
    page = os.sysconf("SC_PAGE_SIZE")
    try:
        for name, value in (("shmmax", most), ("shmall", -(-most // page)), ("msgmni", 16)):
            with open(f"/proc/sys/kernel/{name}", "w") as setting:
                setting.write(str(value))
    except OSError as exc:
        return f"its System V shared memory is not bounded ({exc.strerror})"
    return ""


@functools.cache
def view_plan() -> tuple[tuple[str, str, str | None], ...]:
    """What every worker's view holds but its own folders, as (kind, path, detail): "ro" (a
    folder bound read-only), "link" (a symbolic link to detail), "empty" (an empty folder over
    one), "proc", "dev" (a tmpfs with DEVICES), "tmp" (an empty tmpfs). Asked once by the zygote,
    inherited by its workers."""
    import grader

    package = os.path.dirname(os.path.realpath(grader.__file__))
    plan = [("link", path, os.readlink(path)) if os.path.islink(path) else ("ro", path, None)
            for path in SYSTEM if os.path.lexists(path)]
    python = python_folders(package)
    plan += [("ro", path, None) for path in python]
    plan += [("empty", os.path.join(path, "grader"), None) for path in python
             if os.path.isfile(os.path.join(path, "grader", "__init__.py"))]
    plan += [("empty", package, None), *(("ro", path, None) for path in _grader_parts(package))]
    plan += [("proc", "/proc", None), ("dev", "/dev", None), ("tmp", "/tmp", None)]
    return tuple(dict.fromkeys(plan))


def python_folders(package: str) -> list[str]:
    """The folders of sys.path a worker may import from: each one that provides a module loaded
    now (numpy, the standard library) other than the grader's, and each one under the
    installation's prefixes that holds no `grader` package (a checkout is neither)."""
    entries = sorted(_folders(sys.path), key=len, reverse=True)
    prefixes = _folders([sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix])
    providing, real_folders = set(), {}  # each folder resolved once: realpath is ~40 lstat calls
    for module in list(sys.modules.values()):
        file = getattr(module, "__file__", None)
        if not file:
            continue
        folder, name = os.path.split(file)
        if folder not in real_folders:
            real_folders[folder] = os.path.realpath(folder)
        real = os.path.realpath(file) if os.path.islink(file) else os.path.join(
            real_folders[folder], name)
        if not _under(real, package):
            providing.add(next((entry for entry in entries if _under(real, entry)), None))
    return [entry for entry in _folders(sys.path) if entry in providing or (
        any(_under(entry, prefix) for prefix in prefixes)
        and not os.path.isfile(os.path.join(entry, "grader", "__init__.py")))]


def _grader_parts(package: str) -> list[str]:
    """What a worker imports of the grader package: its __init__ and GRADER_ALLOWED."""

    parts = [os.path.join(package, "__init__.py")]
    for name in GRADER_ALLOWED:
        path = os.path.join(package, *name.split(".")[1:])
        parts.append(path if os.path.isdir(path) else f"{path}.py")
    return [path for path in parts if os.path.exists(path)]


def _folders(paths) -> list[str]:
    """Each existing folder of `paths`, resolved (as the grading side resolves the secrets)."""
    resolved = dict.fromkeys(os.path.realpath(path or ".") for path in paths)
    return [path for path in resolved if os.path.isdir(path)]


def _under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def _covers(secrets: list[str], entries: list, outcome: dict) -> list:
    """Entries covering each secret that lies inside a bound folder (a file with /dev/null, a
    folder with an empty tmpfs); a secret that is itself a bound folder is kept, and said."""
    covers = []
    for secret in secrets:
        if not os.path.lexists(secret):
            continue
        nearest = max((e for e in entries if _under(secret, e[1])), key=lambda e: len(e[1]),
                      default=None)
        if nearest is None or nearest[0] not in BINDS:
            continue  # not in the view at all, or only as a folder holding mount points
        if nearest[1] == secret:
            outcome["kept"].append(secret)
            continue
        covers.append(("empty" if os.path.isdir(secret) else "null", secret, None))
        outcome["hidden"].append(secret)
    return covers


def _build(staging: str, entries: list, notes: list[str]) -> str:
    """Make the view in a tmpfs mounted over `staging` (the working folder, bound back inside
    from a descriptor opened before) -> the new root. Shallowest first; the tmpfs folders that
    hold mount points are sealed (read-only) last. What could not be isolated: added to `notes`."""
    source = os.open(staging, os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC)
    old_umask = os.umask(0o022)
    try:
        linux.mount("vitgrade-root", staging, "tmpfs", linux.MS_NOSUID | linux.MS_NODEV,
                    ROOT_TMPFS)
        to_seal = [staging]
        for kind, path, detail in sorted(dict.fromkeys(entries), key=lambda e: e[1].count("/")):
            target = staging + path
            if kind == "link":
                _mount_point(os.path.dirname(target), True)
                os.symlink(detail, target)
                continue
            is_dir = kind != "null" and (kind != "ro" or os.path.isdir(path))
            _mount_point(target, is_dir)
            if kind == "proc":
                notes += _mount_proc(target)
            elif kind in BINDS:
                origin = f"/proc/self/fd/{source}" if path == staging else path
                linux.mount(origin, target, None, linux.MS_BIND)
                if kind == "ro":
                    linux.mount(None, target, None, linux.MS_REMOUNT | linux.MS_BIND | READ_ONLY)
            elif kind == "null":
                linux.mount("/dev/null", target, None, linux.MS_BIND)
            elif kind == "dev":
                _make_dev(target)
                to_seal.append(target)
            else:  # "empty" or "tmp"
                options = TMP_TMPFS if kind == "tmp" else EMPTY_TMPFS
                linux.mount(f"vitgrade-{kind}", target, "tmpfs",
                            linux.MS_NOSUID | linux.MS_NODEV | linux.MS_NOEXEC * (kind == "empty"),
                            options)
                if kind == "empty":
                    to_seal.append(target)
        for path in reversed(to_seal):
            flags = READ_ONLY if path == staging else SEALED
            linux.mount(None, path, None, linux.MS_REMOUNT | flags)
    finally:
        os.umask(old_umask)
        os.close(source)
    return staging


def _mount_proc(target: str) -> list[str]:
    """A /proc of the worker's own, of its PID namespace (when it is that namespace's pid 1:
    fork()), listing only the processes its user may see (hidepid=invisible, a mount option of
    each procfs since Linux 5.8; an older kernel refuses the word). Refused: the host's /proc,
    and why -> [what is not isolated]."""
    notes = [] if _in_new_pid_ns() else ["its processes have the host's ids (no PID namespace)"]
    try:
        linux.mount("vitgrade-proc", target, "proc", SEALED & ~linux.MS_RDONLY, "hidepid=invisible")
    except OSError as exc:
        linux.mount("/proc", target, None, linux.MS_BIND | linux.MS_REC)
        notes = [f"its processes are among the host's in its /proc (a /proc of its own was "
                 f"refused: {exc.strerror})"]
    return notes


def _mount_point(target: str, is_dir: bool) -> None:
    if os.path.lexists(target):
        return
    os.makedirs(os.path.dirname(target), exist_ok=True)
    if is_dir:
        os.mkdir(target)
    else:
        os.close(os.open(target, os.O_CREAT | os.O_WRONLY | os.O_CLOEXEC, 0o644))


def _make_dev(target: str) -> None:
    """A tmpfs at `target` with the harmless devices bound from /dev, and /dev/fd's links."""
    linux.mount("vitgrade-dev", target, "tmpfs", linux.MS_NOSUID | linux.MS_NOEXEC, EMPTY_TMPFS)
    for name in DEVICES:
        if os.path.exists(f"/dev/{name}"):
            _mount_point(f"{target}/{name}", False)
            linux.mount(f"/dev/{name}", f"{target}/{name}", None, linux.MS_BIND)
    for name, link in DEVICE_LINKS.items():
        os.symlink(link, f"{target}/{name}")
