"""The process table as tests/test_hostile.py reads it: from /proc, and this process made a child
subreaper while attacks run, so that a process escaping every grader process becomes our child.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
from pathlib import Path


@contextlib.contextmanager
def adopting_orphans():
    """Make this process a child subreaper meanwhile: a process that escaped every grader process
    would end up our child. Yields a list that then holds those still running (they are killed)."""
    stray: list[str] = []
    before = set(children(os.getpid()))
    _prctl(PR_SET_CHILD_SUBREAPER, 1)
    try:
        yield stray
    finally:
        _prctl(PR_SET_CHILD_SUBREAPER, 0)
        for pid in set(children(os.getpid())) - before:
            if state(pid) not in (None, "Z"):
                stray.append(f"{pid}: {cmdline(pid)}")
                os.kill(pid, signal.SIGKILL)
            try:
                os.waitpid(pid, 0)
            except ChildProcessError:
                pass


PR_SET_CHILD_SUBREAPER = 36


def _prctl(option: int, value: int) -> None:
    ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0)


def processes() -> dict[int, tuple[int, str, int]]:
    """pid -> (parent, state, real uid) of every process, from /proc."""
    table = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                fields = dict(line.split(":", 1)
                              for line in Path(f"/proc/{name}/status").read_text().splitlines())
                table[int(name)] = (int(fields["PPid"]), fields["State"].split()[0],
                                    int(fields["Uid"].split()[0]))
            except (OSError, KeyError, ValueError):
                continue
    return table


def children(pid: int) -> list[int]:
    return [child for child, (parent, _state, _uid) in processes().items() if parent == pid]


def state(pid: int) -> str | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return None


def cmdline(pid: int) -> str:
    try:
        return (Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
                .decode(errors="replace"))
    except OSError:
        return ""


def identity(pid: int | str) -> str | None:
    """"<its PID namespace's inode>:<its pid there>:<its start time>": a process told apart
    across PID namespaces (as root a worker is pid 1 of one of its own, and what it starts has
    pids of that namespace), as the hostile submissions write it (`os.getpid()` alone means
    nothing outside; the start time alone, in 10 ms ticks, is shared by a worker and the process
    it forks at once)."""
    try:
        start = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19]
        status = Path(f"/proc/{pid}/status").read_text()
        inner = status.split("NSpid:")[1].split("\n")[0].split()[-1]
        return f"{os.stat(f'/proc/{pid}/ns/pid').st_ino}:{inner}:{start}"
    except (OSError, IndexError):
        return None


def running_identities() -> set[str]:
    """The identity of every process that runs (not a zombie)."""
    return {identity(pid) for pid, (_parent, state, _uid) in processes().items() if state != "Z"}
