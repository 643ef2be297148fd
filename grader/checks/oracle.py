"""The reference, in a process of its own, for the stand-in calls nobody recorded.

A check of `f` graded again around a broken helper `g` (dependencies.py) answers `f`'s calls of
`g` with what the course solution's own calls got (stand_ins.py). A correct `f` that calls `g`
its own way (softmax on a (heads, T, T) array rather than per head, a patch embedding built on
the student's own convolution) makes calls nobody recorded: those are computed here, by the
reference, for helpers the tested function is declared to be built on (api.BUILT_ON) only.

Never in the grading process: the arguments are the student's, and the reference on them may
take any time or memory. The oracle is a fresh interpreter (`python -m grader.checks.oracle`)
under an address-space limit, answering over the worker's framed channel (JSON and raw arrays,
no pickle), each call within `seconds` and all of a submission's within `budget` (its start,
which says when it is ready, within START_SECONDS: a loaded machine's start is not a slow call);
a call past either, or one that runs out of memory, makes the oracle unavailable for the rest of
the run (the checks that needed it say so and keep the verdict of the student's own code).
Started on the first unrecorded call: most submissions never start it. Not in the student
bundle, which has no reference (`available`).
"""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from importlib.util import find_spec

from grader.worker import channel
from grader.worker.values import Decoder, Encoder, NotData, ProtocolError, TooLarge

MEMORY_MB = 1024
START_SECONDS = 60.0  # a fresh interpreter importing numpy and the reference, on a loaded machine
NOBODY = 65534  # the user the oracle computes as, when started as root
ANSWER = channel.REPLY  # what the grading process accepts back, as from a worker


NO_REFERENCE = "this grader has no reference to compute the call with (the student bundle)"


class OracleUnavailable(Exception):
    """Why the reference cannot answer (the message says it to the student)."""


class Oracle:
    """The reference of the exercises folder `folder`, one process for a submission's calls."""

    def __init__(self, folder, seconds: float = 5.0, budget: float = 20.0,
                 memory_mb: int = MEMORY_MB):
        self.folder, self.seconds, self.memory_mb = str(folder), seconds, memory_mb
        self.budget = self.budget_left = budget
        self.broken = "" if available() else NO_REFERENCE
        self._process, self._conn = None, None

    def renew(self) -> Oracle:
        """Itself for the next submission: its whole budget again, and working again after a
        call that stopped it (restarted on the next call); the process, if alive, kept."""
        self.budget_left = self.budget
        if self.broken != NO_REFERENCE:
            self.broken = ""
        return self

    def call(self, name: str, args: list) -> list:
        """["ok", value] or ["raised", type, message] of the reference's `name(*args)`;
        OracleUnavailable when it cannot say."""
        if self.broken:
            raise OracleUnavailable(self.broken)
        encoder = Encoder()
        try:
            header = {"name": name, "args": encoder.encode(list(args))}
        except (NotData, TooLarge) as exc:
            raise OracleUnavailable(f"its arguments cannot be sent ({exc})") from None
        conn = self._started()
        start = time.monotonic()
        deadline = start + min(self.seconds, self.budget_left)
        try:
            conn.send(header, encoder.blobs, deadline=deadline)
            reply, blobs = conn.receive(deadline=deadline)
            answer = _answer(reply, blobs)
        except (OSError, ProtocolError) as exc:  # a timeout, its death, a malformed reply
            self.close()
            self.broken = _why(exc, self.seconds, self.memory_mb)
            raise OracleUnavailable(self.broken) from None
        finally:
            self.budget_left -= time.monotonic() - start
        if answer[0] == "unavailable":
            raise OracleUnavailable(answer[1])
        return answer

    def close(self) -> None:
        if self._process is not None:
            self._process.kill()
            self._process.wait()
            self._conn.close()
        self._process = self._conn = None

    def _started(self) -> channel.Connection:
        """The connection to a ready oracle, started if need be; OracleUnavailable if it does not
        say it is ready within START_SECONDS."""
        if self._process is None:
            ours, theirs = socket.socketpair()
            env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1",
                   "MKL_NUM_THREADS": "1"}
            self._process = subprocess.Popen(
                [sys.executable, "-m", "grader.checks.oracle", str(theirs.fileno()), self.folder,
                 str(self.memory_mb)], pass_fds=(theirs.fileno(),), env=env,
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            theirs.close()
            self._conn = channel.Connection(ours, send=channel.REQUEST, receive=ANSWER)
            try:
                ready, _ = self._conn.receive(deadline=time.monotonic() + START_SECONDS)
                if ready.get("status") != "ready":
                    raise ProtocolError("a malformed greeting of the reference")
            except (OSError, ProtocolError):
                self.close()
                self.broken = f"the grader's reference did not start within {START_SECONDS:g} s"
                raise OracleUnavailable(self.broken) from None
        return self._conn


def available() -> bool:
    """Whether this grader has a reference to run (not the student bundle)."""
    return find_spec("grader.reference") is not None


def _answer(reply: dict, blobs) -> list:
    status = reply.get("status")
    if status == "ok":
        return ["ok", Decoder(blobs).decode(reply.get("value"))]
    if status in ("raised", "unavailable"):
        texts = [str(reply.get(key, ""))[:300] for key in ("type", "message")]
        return [status, *texts] if status == "raised" else [status, texts[1]]
    raise ProtocolError("a malformed answer of the reference")


def _why(exc: Exception, seconds: float, memory_mb: int) -> str:
    """Why the oracle cannot answer, in the words a student reads after 'could not answer: '."""
    if isinstance(exc, TimeoutError):
        return f"the reference took more than {seconds:g} s on this call (or the run's budget)"
    return (f"the grader's reference stopped on this call (it may have needed more than "
            f"{memory_mb} MB)")


def serve(sock_fd: int, folder: str, memory_mb: int) -> None:
    """The oracle's side: answer calls until the grader hangs up."""
    import resource

    from grader.checks.course import course_reference, reference_function
    from grader.reference import REFERENCE  # noqa: F401 - loaded before the privileges go

    course_reference(folder)
    if os.geteuid() == 0:  # it reads nothing more: it computes as nobody
        os.setgroups([])
        os.setgid(NOBODY)
        os.setuid(NOBODY)
    limit = memory_mb * 2**20
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    conn = channel.Connection(socket.socket(fileno=sock_fd), send=ANSWER, receive=channel.REQUEST)
    conn.send({"status": "ready"})
    while True:
        try:
            request, blobs = conn.receive()
        except channel.ConnectionClosed:
            return
        conn.send(*_computed(request, blobs, folder, reference_function))


def _computed(request: dict, blobs, folder: str, reference_function) -> tuple[dict, list]:
    try:
        function = reference_function(str(request["name"]), folder)
        value = function(*Decoder(blobs).decode(request["args"]))
    except MemoryError:
        return {"status": "unavailable", "message": "the reference ran out of memory"}, []
    except (KeyError, ProtocolError) as exc:
        return {"status": "unavailable", "message": f"no reference for it ({exc})"[:300]}, []
    except Exception as exc:  # noqa: BLE001 - the reference's refusal is the answer
        return {"status": "raised", "type": type(exc).__name__, "message": str(exc)[:300]}, []
    encoder = Encoder(max_bytes=ANSWER.total_bytes // 2)
    try:
        return {"status": "ok", "value": encoder.encode(value)}, encoder.blobs
    except (NotData, TooLarge) as exc:
        return {"status": "unavailable", "message": f"its answer cannot be sent ({exc})"}, []


if __name__ == "__main__":
    serve(int(sys.argv[1]), sys.argv[2], int(sys.argv[3]))
