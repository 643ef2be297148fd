"""Stand-ins, grading side: answer the worker's stand-in calls with what the course solution's
own calls got, never by running anything (docs/spec.md, "Dependencies").

`vitgrade compile` recorded, for every check and case, the helper calls the course solution
makes and the reference's answers (compile_stand_ins.py): the table STAND_IN_TABLE,

    "<check name>/<case key>" -> [[helper, [its API arguments], ["ok", value]
                                                               | ["raised", type, message]], ...]

where the case key is a hash of the call the grader makes (`case_key`). A stand-in call is
answered only when it matches one of its case's records (`matches`); anything else is
"unavailable". So the work done here is a comparison with recorded values: bounded by
construction, the same in the student bundle as on the autograder.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

import numpy as np

from grader.spec.model import Check
from grader.worker.values import MAX_DEPTH, Decoder, Encoder, ProtocolError, TooLarge, encode_call

from . import compiled, compiled_folder
from .compare import Compare, agrees
from .oracle import OracleUnavailable

STAND_IN_TABLE = "standins"
MAX_CALLS = 4000  # per check; a correct vit_forward makes a few dozen per case
ANSWER_BYTES = 64 * 2**20
# arguments this close to a recorded call's differ in their last bits only (another order of the
# same sums): its recorded answer is theirs; farther, a computable helper is computed (_computed)
NEAR = Compare(rtol=1e-9, atol=1e-12)
NOT_COMPILED = ("this exercise's stand-in answers are not compiled (the instructor runs "
                "`vitgrade compile`)")


def case_key(check: Check, name: str, call) -> str:
    """'<check name>/<hash>': which case of `check` the grader's call of `name` with the
    encoded arguments `call` (values.EncodedCall) is."""
    digest = hashlib.sha256(f"{name}\0{call.json}".encode())
    for blob in call.blobs:
        digest.update(len(blob).to_bytes(8, "little"))
        digest.update(blob)
    return f"{check.name}/{digest.hexdigest()[:32]}"


def recorded_calls(spec: Path) -> Callable[[str], list] | None:
    """Case key -> the solution's recorded helper calls there ([] for none), for the spec file
    `spec`; None when its stand-in answers are not compiled (missing, stale, or compiled
    without a solution)."""
    try:
        data = compiled_folder.cached(spec)
    except compiled.CompiledError:
        return None
    if data is None or STAND_IN_TABLE not in data.tables:
        return None

    def calls(key: str) -> list:
        try:
            return data.lookup(STAND_IN_TABLE, key) or []
        except compiled.CompiledError:  # a corrupt entry answers nothing
            return []
    return calls


class StandIns:
    """Stand-ins for `names` during one check, answered from `recorded` (recorded_calls);
    records which ones the student's code called (`used`) and why a call could not be answered
    (`unavailable`, "" when all were)."""

    def __init__(self, names, check: Check, recorded: Callable[[str], list], oracle=None):
        self.names = tuple(names)
        # a call nobody recorded is computed by the reference (oracle.py), for the helpers the
        # tested function is declared to be built on only (a property's: those of the functions
        # it tests, never one of these: why-positions' embed_image counting its rows by
        # num_tokens)
        self.oracle = oracle
        tested = (check.function,) if check.function else check.names_tested()
        self.computable = {helper for name in tested
                           for helper in check.api.built_on.get(name, ())} - set(tested)
        # name -> [its number of API parameters, the defaults of its optional ones]
        self.parameters = {name: [len(check.api.params(name)), list(check.api.options(name))]
                      for name in self.names}
        self.how = check.stand_in_tolerance
        self.check, self.recorded = check, recorded
        self.used: set[str] = set()
        self.unavailable = ""
        self.calls = 0
        self.cases: list[str] = []  # the case key of each call of the current request
        self._records: dict[str, list] = {}

    def begin(self, name: str, calls) -> None:
        """A request of the grader's calls of `name` (EncodedCalls) is about to be sent."""
        self.cases = [case_key(self.check, name, call) for call in calls]

    def answer(self, name: str, header: dict, blobs, index: int) -> tuple[dict, list[bytes]]:
        """The answer to the worker's stand-in call `header` of `name` during call `index` of
        the request -> (header, blobs). ProtocolError for a malformed call (the worker is then
        stopped)."""
        self.used.add(name)
        self.calls += 1
        if "refused" in header:  # the worker could not bind the call the student's way
            return self._unavailable(str(header["refused"])[:300])
        if self.calls > MAX_CALLS:
            return self._unavailable(f"more than {MAX_CALLS} stand-in calls")
        candidates = [r for r in self._case(index) if r[0] == name]
        computable = self.oracle is not None and name in self.computable
        if not candidates and not computable:  # nothing to compare with: not even decoded
            return self._unavailable(self._never(name))
        decoded = Decoder(blobs).decode(header.get("call"))
        if type(decoded) is not list or len(decoded) != 2 or type(decoded[0]) is not list:
            raise ProtocolError("a malformed stand-in call")
        for _, args, answer in candidates:
            if matches(args, decoded[0], self.how):
                if computable and not matches(args, decoded[0], NEAR):
                    return self._computed(name, decoded[0], answer)
                return self.respond(answer)
        if not computable:
            return self._unavailable(self._never(name))
        try:
            return self.respond(self.oracle.call(name, decoded[0]))
        except OracleUnavailable as why:
            return self._unavailable(f"the grader's `{name}` could not answer: {why}")

    def _computed(self, name: str, args: list, recorded: list) -> tuple[dict, list[bytes]]:
        """The reference's answer to the student's own arguments, which match a recorded call
        within the check's tolerance but not to the last bits: the recorded answer is that of
        the solution's arguments, and a difference the tolerance let through grows in what the
        caller does next (blind round 71's b71_13: a LayerNorm's eps of 1e-3 answered as 1e-6's
        attention, a mixture the error model then explained as a floor); the recorded one when
        the reference cannot answer."""
        try:
            return self.respond(self.oracle.call(name, args))
        except OracleUnavailable:
            return self.respond(recorded)

    def respond(self, answer: list) -> tuple[dict, list[bytes]]:
        if answer[0] == "raised":  # the reference's own refusal, e.g. patches that do not tile
            return {"status": "raised", "type": answer[1], "message": answer[2]}, []
        encoder = Encoder(max_bytes=ANSWER_BYTES)
        try:
            return {"status": "ok", "value": encoder.encode(answer[1])}, encoder.blobs
        except TooLarge as exc:
            return self._unavailable(f"the answer is too large ({exc})")

    def _case(self, index: int) -> list:
        key = self.cases[index] if 0 <= index < len(self.cases) else ""
        if key not in self._records:
            self._records[key] = self.recorded(key) if key else []
        return self._records[key]

    def _never(self, name: str) -> str:
        return (f"the grader's `{name}` answers only the calls the course solution makes on "
                "this case, and this call is not one of them")

    def _unavailable(self, message: str) -> tuple[dict, list]:
        self.unavailable = self.unavailable or message
        return {"status": "unavailable", "message": message}, []


def matches(recorded, got, how: Compare, depth: int = 0) -> bool:
    """Whether the student's argument `got` equals the recorded one: arrays of the same shape
    allclose within `how` (never broadcast), integers, strings and keys exactly."""
    if depth > MAX_DEPTH + 1:
        return False
    if isinstance(recorded, np.ndarray):
        if not (isinstance(got, np.ndarray) and got.shape == recorded.shape
                and got.dtype.kind in "biuf" and recorded.dtype.kind in "biuf"):
            return False
        if got.dtype == recorded.dtype and got.tobytes() == recorded.tobytes():
            return True  # most arguments are the case's own inputs, passed on as they are
        # the check's comparison: the bits of a matmul differ from one CPU's BLAS kernels to
        # another's, so a recorded call is rarely equal to the byte. Where the solution had inf
        # (a masked score) or nan, only the same matches.
        return agrees(recorded, got, how, equal_nan=True)
    if isinstance(recorded, (bool, np.bool_)):
        return isinstance(got, (bool, np.bool_)) and bool(got) == bool(recorded)
    if isinstance(recorded, (int, np.integer)):
        return (isinstance(got, (int, np.integer)) and not isinstance(got, (bool, np.bool_))
                and int(got) == int(recorded))
    if isinstance(recorded, (float, np.floating)):
        return (isinstance(got, (int, float, np.integer, np.floating))
                and not isinstance(got, (bool, np.bool_))
                and abs(float(got) - float(recorded)) <= how.atol + how.rtol * abs(float(recorded)))
    if isinstance(recorded, (list, tuple)):
        return (isinstance(got, (list, tuple)) and len(got) == len(recorded)
                and all(matches(r, g, how, depth + 1) for r, g in zip(recorded, got, strict=True)))
    if isinstance(recorded, dict):
        return (isinstance(got, dict) and got.keys() == recorded.keys()
                and all(matches(recorded[k], got[k], how, depth + 1) for k in recorded))
    return type(got) is type(recorded) and got == recorded  # str, None


class StandInWorker:
    """A worker whose calls run with `stand_ins` bound: what a check grades through when it is
    graded again around broken helpers."""

    def __init__(self, worker, stand_ins: StandIns):
        self.worker, self.stand_ins = worker, stand_ins

    def get(self, name: str):
        return self.worker.get(name)

    def call(self, name: str, args=(), kwargs=None):
        return self.call_many(name, [encode_call(args, kwargs)])[0]

    def call_many(self, name: str, calls):
        self.stand_ins.begin(name, calls)
        return self.worker.call_many(name, calls, stand_ins=self.stand_ins)
