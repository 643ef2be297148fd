"""Stand-ins, grading side: answer the worker's stand-in calls with the reference's result.

While a check is graded again around a student's broken helpers (dependencies.py), the worker
binds those helpers' names to stand-ins (grader/worker/stand_ins.py) that send their arguments
here. `StandIns.answer` computes the correct result in this process and sends it back as data:
the reference never enters the worker, only its answer for these arguments does.

The arguments come from student code, so they are bounded before the reference runs on them: at
most twice the bytes of the check's own largest case (plus 1 MB), no axis longer than twice its
longest, at most MAX_CALLS stand-in calls per check. Past a bound the stand-in answers
"unavailable" and the check keeps the grade it had without stand-ins.

A grader without the reference (the student bundle) answers from the spec's compiled data
instead (`answers_for`): the answers `vitgrade compile` recorded for the calls the instructor's
solution makes (compile_stand_ins.py), keyed by `call_digest`.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from grader.worker.values import MAX_DEPTH, Decoder, Encoder, ProtocolError, TooLarge

from . import compiled
from .api import required_params

STAND_IN_TABLE = "standins"  # in a spec's compiled data: call digest -> ["ok", value] or
# ["raised", exception type, message]
MAX_CALLS = 1000  # a correct vit_forward makes a few dozen per case
ANSWER_BYTES = 64 * 2**20


@dataclass(frozen=True)
class Budget:
    """How large one stand-in call's arguments may be."""

    nbytes: int = 2**20
    longest_axis: int = 1024

    @classmethod
    def around(cls, values) -> Budget:
        """Twice what `values` (a check's case arguments) hold, and at least the default."""
        arrays = list(_arrays(values))
        nbytes = sum(a.nbytes for a in arrays)
        longest = max((max(a.shape, default=1) for a in arrays), default=1)
        return cls(max(cls.nbytes, 2 * nbytes + 2**20), max(cls.longest_axis, 2 * longest))

    def refuses(self, values) -> str | None:
        arrays = list(_arrays(values))
        if sum(a.nbytes for a in arrays) > self.nbytes:
            return f"its arguments hold more than {self.nbytes // 2**20} MB"
        if any(max(a.shape, default=1) > self.longest_axis for a in arrays):
            return f"an argument has an axis longer than {self.longest_axis}"
        return None


class Refused(Exception):
    """A recorded refusal of the reference (compiled answers): its exception's type and words."""

    def __init__(self, type_name: str, message: str):
        super().__init__(message)
        self.type_name = type_name


def call_digest(name: str, args: list, kwargs: dict) -> str:
    """A stand-in call's identity: the same name and the same argument values give the same
    digest, whether the arguments were passed by position or by name and in whatever order a
    dict's keys came. What compiled stand-in answers are keyed by, where there is no reference
    to compute them (the student bundle)."""
    required = required_params(name)
    named = {**dict(zip(required, args, strict=False)), **kwargs}  # fewer args: the call fails
    digest = hashlib.sha256(name.encode())
    _feed(digest, [list(args[len(required):]), named])
    return digest.hexdigest()


def _feed(digest, value, depth: int = 0) -> None:
    if depth > MAX_DEPTH + 1:  # deeper than any value the channel lets through
        digest.update(b"deep")
    elif isinstance(value, (np.ndarray, np.generic)):
        array = np.ascontiguousarray(value)
        digest.update(f"a{array.dtype.str}{array.shape}".encode())
        digest.update(array.tobytes())
    elif isinstance(value, dict):
        digest.update(f"d{len(value)}".encode())
        for key in sorted(value, key=str):
            _feed(digest, str(key), depth + 1)
            _feed(digest, value[key], depth + 1)
    elif isinstance(value, (list, tuple)):
        digest.update(f"{'t' if isinstance(value, tuple) else 'l'}{len(value)}".encode())
        for item in value:
            _feed(digest, item, depth + 1)
    else:
        digest.update(f"s{type(value).__name__}:{value!r}".encode())


def answers_for(spec) -> Callable:
    """How the stand-ins of a check of the spec file `spec` are answered: by the reference where
    this grader holds it, else from the spec's compiled answers (recorded by `vitgrade compile`
    from the solution's own calls; a call not recorded is "unavailable")."""
    if compiled.has_reference():
        return reference_answer
    return functools.partial(compiled_answer, Path(spec))


def compiled_answer(spec: Path, name: str, args: list, kwargs: dict, digest: str):
    found = compiled.lookup(spec, STAND_IN_TABLE, digest)
    if found is None:
        raise LookupError("no answer is compiled for these arguments")
    if found[0] == "raised":
        raise Refused(found[1], found[2])
    return found[1]


def reference_answer(name: str, args: list, kwargs: dict, digest: str | None = None):
    """The reference's `name(*args, **kwargs)` (`digest` is for compiled answers)."""
    from grader.reference import REFERENCE

    with np.errstate(all="ignore"):
        return REFERENCE[name](*args, **kwargs)


class StandIns:
    """Correct stand-ins for `names` during one check; records which ones the student's code
    called (`used`) and whether any call could not be answered (`unavailable`)."""

    def __init__(self, names, budget: Budget = Budget(), compute=reference_answer,
                 record: dict | None = None):
        self.names = tuple(names)
        self.budget, self.compute = budget, compute
        self.record = record  # digest -> answer (STAND_IN_TABLE): what `vitgrade compile` keeps
        self.used: set[str] = set()
        self.unavailable = False
        self.calls = 0

    def answer(self, name: str, call, blobs) -> tuple[dict, list[bytes]]:
        """The answer to the worker's stand-in call of `name` -> (header, blobs). ProtocolError
        when the call is not two plain-data lists (the worker is then stopped)."""
        self.used.add(name)
        self.calls += 1
        decoded = Decoder(blobs).decode(call)
        if type(decoded) is not list or len(decoded) != 2 or type(decoded[0]) is not list \
                or type(decoded[1]) is not dict:
            raise ProtocolError("a malformed stand-in call")
        args, kwargs = decoded
        refusal = (f"more than {MAX_CALLS} calls" if self.calls > MAX_CALLS
                   else self.budget.refuses(decoded))
        if refusal:
            return self._unavailable(f"the grader's {name} cannot stand in here: {refusal}")
        try:
            digest = call_digest(name, args, kwargs)
            value = self.compute(name, args, kwargs, digest)
        except (LookupError, compiled.CompiledError) as missing:  # the bundle knows no answer
            return self._unavailable(f"the grader's {name} cannot stand in here ({missing})")
        except Exception as refused:  # the reference's own refusal, e.g. patches that do not tile
            kind = refused.type_name if isinstance(refused, Refused) else type(refused).__name__
            if self.record is not None:
                self.record[digest] = ["raised", kind, str(refused)[:500]]
            return {"status": "raised", "type": kind, "message": str(refused)[:500]}, []
        if self.record is not None:
            self.record[digest] = ["ok", value]
        encoder = Encoder(max_bytes=ANSWER_BYTES)
        try:
            return {"status": "ok", "value": encoder.encode(value)}, encoder.blobs
        except TooLarge as exc:
            return self._unavailable(f"the grader's {name} cannot stand in here ({exc})")

    def _unavailable(self, message: str) -> tuple[dict, list]:
        self.unavailable = True
        return {"status": "unavailable", "message": message}, []


class StandInWorker:
    """A worker whose calls run with `stand_ins` bound: what a check grades through when it is
    graded again around broken helpers."""

    def __init__(self, worker, stand_ins: StandIns):
        self.worker, self.stand_ins = worker, stand_ins

    def get(self, name: str):
        return self.worker.get(name)

    def call(self, name: str, args=(), kwargs=None, *, timeout: float | None = None):
        return self.worker.call(name, args, kwargs, timeout=timeout, stand_ins=self.stand_ins)

    def call_many(self, name: str, calls, *, timeout: float | None = None):
        return self.worker.call_many(name, calls, timeout=timeout, stand_ins=self.stand_ins)


def _arrays(value, depth: int = 0):
    """Every array inside nested lists, tuples and dicts."""
    if depth > MAX_DEPTH + 1:
        return
    if isinstance(value, np.ndarray):
        yield value
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _arrays(item, depth + 1)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _arrays(item, depth + 1)
