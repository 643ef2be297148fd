"""A worker forked into a PID namespace of its own sees 0 as its parent's pid, alive or dead: a
zygote that died between the fork and the worker's PR_SET_PDEATHSIG (which the worker can only
set after it changed user: a change of user clears it) would leave a worker that never learns it.
The zygote keeps a pidfd of itself (linux.open_own_pidfd), which the worker polls (issue 35,
the PID namespace's start-up race)."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from grader.worker import hiding, linux

ROOT = Path(__file__).resolve().parents[1]
needs_root = pytest.mark.skipif(not (os.geteuid() == 0 and sys.platform.startswith("linux")),
                                reason="the worker's PID namespace needs root on Linux")


def _orphan_outcome(pidfd: bool) -> str:
    """A stand-in zygote (a child of ours) forks a worker as the zygote does, then exits before
    the worker asks for its death signal -> what the worker wrote: "forked;" once it runs, then
    "lived" when die_with_parent let it go on."""
    read, write = os.pipe()
    go_read, go_write = os.pipe()
    zygote = os.fork()
    if zygote == 0:
        try:
            os.close(read)
            if pidfd:
                linux.open_own_pidfd()
            parent = os.getpid()
            if hiding.fork() == 0:  # the worker: pid 1 of a PID namespace of its own
                os.close(go_write)
                os.write(write, b"forked;")
                os.read(go_read, 1)  # until its zygote has died
                linux.die_with_parent(parent, 70)
                os.write(write, b"lived")
        finally:
            os._exit(0)
    os.close(write)
    os.close(go_read)
    os.waitpid(zygote, 0)  # the zygote is gone; its worker now asks
    os.close(go_write)
    with os.fdopen(read) as pipe:  # EOF once the worker wrote or exited
        return pipe.read()


@needs_root
def test_a_worker_whose_zygote_died_before_it_asked_for_its_death_signal_exits():
    assert _orphan_outcome(pidfd=True) == "forked;"


@needs_root
def test_without_the_pidfd_such_a_worker_cannot_tell():
    """What the pidfd is for: getppid() is 0 either way (the control: without it, it lives)."""
    assert _orphan_outcome(pidfd=False) == "forked;lived"


# Makes a shared memory segment in its worker's IPC namespace, says so, and waits.
HOLDER = '''
import ctypes, os, time
libc = ctypes.CDLL(None, use_errno=True)
made = libc.shmget(0, 1 << 20, 0o1000 | 0o600)
with open(os.path.join(os.path.dirname(__file__), "scratch", "ready"), "w") as out:
    out.write(str(made))
time.sleep(120)
'''


def _children(pid: int) -> list[int]:
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as stat:
                    if int(stat.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.append(int(name))
            except (OSError, ValueError, IndexError):
                continue
    return found


def _holders_of(namespace: str) -> list[int]:
    holders = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                if os.readlink(f"/proc/{name}/ns/ipc") == namespace:
                    holders.append(int(name))
            except OSError:
                continue
    return holders


def _eventually(condition, seconds: float = 60.0) -> bool:
    deadline = time.monotonic() + seconds  # a safety net: each step takes milliseconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


@needs_root
def test_a_sigkilled_zygote_takes_its_workers_ipc_namespace_with_it():
    """Issue 35: nothing removes a worker's System V IPC objects if its zygote is SIGKILLed. As
    root with namespaces nothing needs to: the worker dies with its zygote (its death signal),
    and with its last process its IPC namespace and every object in it."""
    base = Path(tempfile.mkdtemp(prefix="vitgrade-killed-"))  # its user must reach it
    grading = None
    try:
        (base / "scratch").mkdir()
        (base / "scratch").chmod(0o777)
        base.chmod(0o755)
        (base / "holder.py").write_text(HOLDER)
        grading = subprocess.Popen([sys.executable, "-m", "grader.cli", "grade",
                                    str(base / "holder.py"), "--load-timeout", "300",
                                    "--exercises", str(ROOT / "exercises"),
                                    "--json", str(base / "out.json")],
                                   cwd=base, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        assert _eventually((base / "scratch" / "ready").exists)
        assert int((base / "scratch" / "ready").read_text()) >= 0  # the segment was made
        zygotes = [pid for pid in _children(grading.pid)
                   if b"grader.worker.zygote" in Path(f"/proc/{pid}/cmdline").read_bytes()]
        assert len(zygotes) == 1, zygotes
        workers = _children(zygotes[0])
        namespaces = {os.readlink(f"/proc/{pid}/ns/ipc") for pid in workers}
        assert len(namespaces) == 1 and namespaces != {os.readlink("/proc/self/ns/ipc")}
        os.kill(zygotes[0], signal.SIGKILL)
        namespace = namespaces.pop()
        assert _eventually(lambda: not _holders_of(namespace)), _holders_of(namespace)
    finally:
        if grading is not None:
            grading.kill()
            grading.wait()
        shutil.rmtree(base, ignore_errors=True)
