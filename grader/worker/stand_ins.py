"""Stand-ins, worker side: student-API names bound, for one call, to functions that ask the
grader.

When a check is graded again around the student's broken helpers (checks/dependencies.py), its
request names them (`"stand_ins": ["patchify"]`). For each call of that request the submission's
namespace maps each name to a stand-in: it sends its arguments to the grading process as data and
returns the answer as data, so the student's `linear_patch_embed` runs on a correct `patchify`
while the reference never enters this process (only its result for these arguments does, bounded
like any message):

  worker -> grader:  {"op": "stand_in", "seq", "index", "name", "call": [args, kwargs]} + arrays
  grader -> worker:  {"status": "ok", "value"} + arrays | {"status": "raised", "type", "message"}
                     | {"status": "unavailable", "message"}
"""

from __future__ import annotations

import builtins
import contextlib
import os

from grader.worker import channel
from grader.worker.values import Decoder, Encoder, NotData, ProtocolError, TooLarge

# What a stand-in re-raises of the reference's refusals; anything else is a RuntimeError.
RAISABLE = frozenset({"ValueError", "TypeError", "IndexError", "KeyError", "ZeroDivisionError",
                      "ArithmeticError", "AssertionError", "RuntimeError"})


class StandInUnavailable(Exception):
    """The grader could not answer a stand-in here (its arguments are out of bounds, or the
    student bundle holds no answer for them): the check keeps its grade without stand-ins."""


@contextlib.contextmanager
def bound(namespace: dict, names: list[str], conn: channel.Connection, seq: int, index: int):
    """`names` in `namespace` replaced by stand-ins for the duration of the block."""
    saved = {name: namespace[name] for name in names if name in namespace}
    active = [True]  # a stand-in kept past its call refuses
    for name in names:
        namespace[name] = _stand_in(name, conn, seq, index, active)
    try:
        yield
    finally:
        active[0] = False
        for name in names:
            if name in saved:
                namespace[name] = saved[name]
            else:
                namespace.pop(name, None)


def _stand_in(name: str, conn: channel.Connection, seq: int, index: int, active: list):
    owner = os.getpid()

    def stand_in(*args, **kwargs):
        if not active[0] or os.getpid() != owner:
            raise RuntimeError(f"the grader's stand-in for {name} works only during its call")
        encoder = Encoder(max_bytes=conn.send_bounds.total_bytes // 2)
        try:
            tree = [encoder.encode(list(args)), encoder.encode(dict(kwargs))]
        except (NotData, TooLarge) as exc:
            raise TypeError(f"the grader's stand-in for {name} takes only numbers, strings, "
                            f"arrays, lists and dicts ({exc})") from None
        conn.send({"op": "stand_in", "seq": seq, "index": index, "name": name, "call": tree},
                  encoder.blobs)
        header, blobs = conn.receive()
        status = header.get("status")
        if status == "ok":
            return Decoder(blobs).decode(header.get("value"))
        message = str(header.get("message", ""))[:1000]
        if status == "raised":
            kind = str(header.get("type"))
            raise (getattr(builtins, kind) if kind in RAISABLE else RuntimeError)(message)
        if status == "unavailable":
            raise StandInUnavailable(message)
        raise ProtocolError("a malformed stand-in answer")

    stand_in.__name__ = stand_in.__qualname__ = name
    stand_in.__doc__ = f"The grader's correct {name}, standing in for yours during this check."
    return stand_in


def requested(header: dict) -> list[str]:
    """The stand-in names a request asks for (ProtocolError for anything but a list of names)."""
    names = header.get("stand_ins", [])
    if type(names) is not list or not all(type(n) is str and n.isidentifier() for n in names):
        raise ProtocolError("malformed stand-ins")
    return names
