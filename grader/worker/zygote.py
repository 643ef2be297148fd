"""The zygote: a clean parent that imports numpy once and forks one worker per request.

Started as `python -m grader.worker.zygote CONTROL_FD` by the grading side (zygote_handle.py). It
never loads student code nor imports the grader's reference, specs or checks: a worker forked from
it holds no expected value. A child subreaper, it kills a stopped worker's group and sweeps /proc
until nothing of it runs (processes.py); it exits, killing its workers, when the grader hangs up.

Control messages are JSON, one per SOCK_SEQPACKET datagram; a "fork" request carries the
worker's socket and output file as SCM_RIGHTS descriptors. Requests:
  {"op": "fork", "submission", "workdir", limits...} + 2 fds -> {"pid"} (student_worker.py)
  {"op": "reap", "pid"} -> {"status"}: kill the worker and everything it started, wait, return
      the wait status
  {"op": "renew", "pid"} -> {}: kill what the worker started (the process that answers its
      calls, serve.py), not the worker, which forks another
  {"op": "modules"} -> {"modules"}: what this process has imported (tests check it is clean)
"""

from __future__ import annotations

import gc
import json
import os
import signal
import socket
import sys

if __name__ == "__main__":  # the zygote's imports: ~40 collections that free nothing (9-37 ms
    gc.disable()  # of its start); main() turns it back on for the workers

import numpy  # noqa: E402, F401 - the zygote's point: every worker starts with numpy imported

from grader.worker import hiding, linux, sandbox, serve  # noqa: E402 - preloaded, as numpy
from grader.worker.processes import kill_below, kill_group, process_table, status, sweep  # noqa: E402

MAX_CONTROL_MESSAGE = 2**20


def main(argv: list[str]) -> None:
    control = socket.socket(fileno=int(argv[0]))
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # ^C is the grader's to handle; we go when it goes
    linux.prctl(linux.PR_SET_CHILD_SUBREAPER, 1)  # orphans of a worker's tree come to us, not init
    linux.not_dumpable()  # a worker of the same user cannot ptrace the zygote
    linux.open_own_pidfd()  # a worker in a PID namespace of its own tells from it that we died
    if os.geteuid() == 0:
        hiding.view_plan()  # what every worker's view holds: asked once here, inherited
        remove_ipc_of_gone_workers()  # left by a zygote that was killed
    gc.freeze()  # keep preloaded objects out of the workers' collections: fewer copied pages
    gc.enable()  # for the workers: student code's garbage is collected as anywhere
    workers: set[int] = set()
    try:
        control.send(json.dumps({"op": "ready"}).encode())
        while True:
            message, fds, _flags, _addr = socket.recv_fds(control, MAX_CONTROL_MESSAGE, 2)
            if not message:
                return  # the grader closed the connection or died
            try:
                reply = _handle(json.loads(message), fds, control, workers)
            except Exception as exc:  # noqa: BLE001 - a bad request must not end the zygote
                reply = {"error": f"{type(exc).__name__}: {exc}"}
            finally:
                for fd in fds:  # the worker has its copies; ours would keep the socket open
                    os.close(fd)
            control.send(json.dumps(reply).encode())
    except ConnectionError:
        return  # the grader went away mid-request: the same as hanging up
    finally:
        for pid in list(workers):
            workers.discard(pid)
            _kill_and_reap(pid, workers)
        sweep(None, workers)  # orphans of workers that ended on their own


def _handle(request: dict, fds: list[int], control: socket.socket, workers: set[int]) -> dict:
    op = request.get("op")
    if op == "fork":
        if len(fds) != 2:
            raise ValueError("a fork request carries a socket and an output file")
        pid = _fork(request, fds, control)
        workers.add(pid)
        return {"pid": pid}
    if op == "reap":
        pid = request["pid"]
        if pid not in workers:
            raise ValueError(f"{pid} is not a worker of this zygote")
        workers.discard(pid)
        return {"status": _kill_and_reap(pid, workers)}
    if op == "renew":  # a call deaf to its alarm: the loaded worker forks another process
        if request["pid"] not in workers:
            raise ValueError(f"{request['pid']} is not a worker of this zygote")
        kill_below(request["pid"])
        return {}
    if op == "modules":
        return {"modules": sorted(sys.modules)}
    raise ValueError(f"unknown request {op!r}")


def _fork(request: dict, fds: list[int], control: socket.socket) -> int:
    zygote_pid = os.getpid()
    pid = hiding.fork()  # as root, the worker is pid 1 of a PID namespace of its own
    if pid == 0:  # the worker: never comes back here
        try:
            control.close()
            serve.run(fds[0], fds[1], request, zygote_pid)
        finally:
            os._exit(sandbox.CRASH_EXIT)
    return pid


def _kill_and_reap(pid: int, live_workers: set[int]) -> int:
    """SIGKILL the worker, its process group and everything it started, then wait for it: no
    process and no zombie is left. `live_workers`: the other workers, which are spared."""
    kill_group(pid)
    user = _own_user(pid)  # while its /proc entry is there
    # killed: at once. Whatever it started now hangs off us (subreaper)
    status = os.waitpid(pid, 0)[1]
    sweep(None, live_workers, user)  # so one pass over /proc usually finds nothing left
    if user is not None:  # without an IPC namespace of its own, what it left is in ours
        linux.remove_sysv_ipc(lambda owner: owner == user)
    return status


def remove_ipc_of_gone_workers() -> int:
    """What workers' own users left in this IPC namespace with no process of theirs alive (a
    zygote SIGKILLed before it could remove it; a worker's user is never reused while its
    processes run) -> how many objects were removed. As root, at the zygote's start."""
    if os.geteuid() != 0:
        return 0
    base, live = sandbox.WORKER_UID_BASE, None

    def gone_worker(owner: int) -> bool:
        nonlocal live
        if not base <= owner < base + sandbox.WORKER_UIDS:
            return False
        if live is None:  # read /proc only where a worker's user owns something
            live = {uid for _ppid, _state, uid in process_table().values()}
        return owner not in live

    return linux.remove_sysv_ipc(gone_worker)


def _own_user(pid: int) -> int | None:
    """The worker's uid, if it is a user of the worker's own (sandbox.WORKER_UID_BASE): only a
    root zygote gives its workers such users (a directory service may give people uids that
    high)."""
    if os.geteuid() != 0:
        return None
    entry = status(pid)
    base = sandbox.WORKER_UID_BASE
    inside = entry is not None and base <= entry[2] < base + sandbox.WORKER_UIDS
    return entry[2] if inside else None


if __name__ == "__main__":
    main(sys.argv[1:])
    # every worker and what it started is gone (main's finally): skip tearing numpy down, which
    # the grader would wait for (~30 ms of every run)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)
