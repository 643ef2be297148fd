"""Stand-ins, grading side: answer the worker's stand-in calls with the reference's result.

While a check is graded again around a student's broken helpers (dependencies.py), the worker
binds those helpers' names to stand-ins (grader/worker/stand_ins.py) that send their arguments
here. `StandIns.answer` computes the correct result in this process and sends it back as data:
the reference never enters the worker, only its answer for these arguments does.

The arguments come from student code, so they are bounded before the reference runs on them: at
most twice the bytes of the check's own largest case (plus 1 MB), no axis longer than twice its
longest, at most MAX_CALLS stand-in calls per check. Past a bound the stand-in answers
"unavailable" and the check keeps the grade it had without stand-ins.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

import numpy as np

from grader.worker.values import Decoder, Encoder, ProtocolError, TooLarge

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


def call_digest(name: str, call, blobs) -> str:
    """A stand-in call's identity: the same name and the same argument bytes give the same
    digest, whichever process encoded them (dict keys sorted). What compiled stand-in answers are
    keyed by, where there is no reference to compute them (the student bundle)."""
    digest = hashlib.sha256(name.encode())
    digest.update(json.dumps(call, sort_keys=True, separators=(",", ":")).encode())
    for blob in blobs:
        digest.update(len(blob).to_bytes(8, "little"))
        digest.update(blob)
    return digest.hexdigest()


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
        self.record = record  # digest -> (name, answer): what compiling the bundle keeps
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
        digest = call_digest(name, call, blobs)
        try:
            value = self.compute(name, args, kwargs, digest)
            if self.record is not None:
                self.record[digest] = (name, value)
        except LookupError as missing:  # no answer known for these arguments (student bundle)
            return self._unavailable(f"the grader's {name} cannot stand in here ({missing})")
        except Exception as refused:  # the reference's own refusal, e.g. patches that do not tile
            return {"status": "raised", "type": type(refused).__name__,
                    "message": str(refused)[:500]}, []
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

    def load(self):
        return self.worker.load()

    def get(self, name: str):
        return self.worker.get(name)

    def call(self, name: str, args=(), kwargs=None, *, timeout: float | None = None):
        return self.worker.call(name, args, kwargs, timeout=timeout, stand_ins=self.stand_ins)

    def call_many(self, name: str, calls, *, timeout: float | None = None):
        return self.worker.call_many(name, calls, timeout=timeout, stand_ins=self.stand_ins)


def _arrays(value, depth: int = 0):
    """Every array inside nested lists, tuples and dicts."""
    if depth > 64:
        return
    if isinstance(value, np.ndarray):
        yield value
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _arrays(item, depth + 1)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _arrays(item, depth + 1)
