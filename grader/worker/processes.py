"""Finding and killing what a process tree left behind, from /proc (Linux; elsewhere nothing).

A zygote sweeps after each worker; `grade-all`'s coordinator sweeps after a job it had to kill
and at its end. Each is a child subreaper (linux.PR_SET_CHILD_SUBREAPER), so an orphan of the
tree below it (a double fork, a `setsid` daemon) is re-parented to it, not to init, and a sweep
finds it among its own children.
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import time

SWEEP_SECONDS = 5.0  # a sweep that has not emptied what it kills by then gives up (and says so)


def sweep(worker: int | None, live_workers: set[int], user: int | None = None) -> list[int]:
    """Kill, until none is left, every process that belongs to `worker` (None: to none of
    `live_workers`, which are spared with what they started): its descendants, this process's
    children that are not live workers (orphans re-parented to us), and every process of `user`
    (a worker's own user), if given. Returns those still running after SWEEP_SECONDS (a bug or a
    kernel in trouble; the list is for the log). Needs /proc; without it, nothing is found."""
    if worker is None and user is None and not has_children():
        return []  # what it kills hangs off our children: a pass over /proc would find nothing
    me = os.getpid()
    deadline = time.monotonic() + SWEEP_SECONDS
    while True:
        table = process_table()
        victims = _belonging(table, worker, user, me, live_workers)
        running = [pid for pid in victims if table[pid][1] != "Z"]
        for pid in running:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        _reap_orphans(table, me, worker, live_workers)
        if not running or time.monotonic() > deadline:
            return running
        time.sleep(0.001)


def has_children() -> bool:
    """Whether this process has a child, running or a zombie (none is reaped). Spares the
    zygote's last sweep (~3 ms, which `vitgrade grade` waits for) once its workers are reaped."""
    try:
        os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return False
    return True


def kill_below(pid: int) -> None:
    """SIGKILL every descendant of `pid`, not `pid` itself (one pass over /proc)."""
    for victim in _belonging(process_table(), None, None, pid, set()):
        with contextlib.suppress(OSError):
            os.kill(victim, signal.SIGKILL)


def kill_group(pid: int) -> None:
    """SIGKILL the process group `pid` leads, then `pid` itself (the group may not exist yet: a
    worker that died before its setsid())."""
    for kill in (os.killpg, os.kill):
        with contextlib.suppress(OSError):
            kill(pid, signal.SIGKILL)


def _belonging(table: dict, worker: int | None, user: int | None, me: int,
               live_workers: set[int]) -> set[int]:
    children: dict[int, list[int]] = {}
    for pid, (ppid, _state, _uid) in table.items():
        children.setdefault(ppid, []).append(pid)
    # the worker (if ours) and orphans
    roots = [pid for pid in children.get(me, ()) if pid not in live_workers]
    if worker is not None and worker in table:
        roots.append(worker)
    if user is not None:
        roots += [pid for pid, (_ppid, _state, uid) in table.items() if uid == user]
    found, todo = set(), roots
    while todo:
        pid = todo.pop()
        if pid not in found and pid != me and pid not in live_workers:
            found.add(pid)
            todo.extend(children.get(pid, ()))
    return found


def _reap_orphans(table: dict, me: int, worker: int | None, live_workers: set[int]) -> None:
    """Collect the zombies among our children, except workers (their status is asked for)."""
    for pid, (ppid, state, _uid) in table.items():
        if ppid == me and state == "Z" and pid != worker and pid not in live_workers:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, os.WNOHANG)


def process_table() -> dict[int, tuple[int, str, int]]:
    """pid -> (parent pid, state letter, real uid) of every process, from /proc ({} without it)."""
    try:
        names = os.listdir("/proc")
    except OSError:
        return {}
    table = {}
    for name in names:
        if name.isdigit():
            entry = status(int(name))
            if entry is not None:
                table[int(name)] = entry
    return table


def status(pid: int) -> tuple[int, str, int] | None:
    try:
        with open(f"/proc/{pid}/status", "rb", buffering=0) as handle:
            text = handle.read(1 << 16)
    except OSError:  # it ended meanwhile
        return None
    found = _STATUS_FIELDS.search(text)  # one pass over a sweep's every process: kept cheap
    if found is None:
        return None
    state, ppid, uid = found.groups()
    return int(ppid), state.decode(), int(uid)


# The lines of /proc/PID/status a sweep reads, in the kernel's order (a name cannot fake a line:
# the kernel escapes newlines in it).
_STATUS_FIELDS = re.compile(rb"\nState:\s*(\S).*?\nPPid:\s*(\d+).*?\nUid:\s*(\d+)", re.S)


