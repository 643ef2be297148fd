"""A worker forked into a PID namespace of its own sees 0 as its parent's pid, alive or dead: a
zygote that died between the fork and the worker's PR_SET_PDEATHSIG (which the worker can only
set after it changed user: a change of user clears it) would leave a worker that never learns it.
The zygote keeps a pidfd of itself (linux.open_own_pidfd), which the worker polls (issue 35,
the PID namespace's start-up race)."""
from __future__ import annotations

import os
import sys

import pytest

from grader.worker import hiding, linux

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
