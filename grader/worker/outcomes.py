"""What the grading side learns from a worker: load reports and call outcomes (its limits:
limits.py).

The parsers here read a worker's reply (untrusted data) into these dataclasses; anything
malformed raises ProtocolError, which the caller turns into the student's failed call.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from grader.worker.values import Decoder, ProtocolError


@dataclass(frozen=True)
class StudentError:
    """An exception raised inside student code, with only the student's own frames."""

    type: str  # "ValueError"
    message: str
    traceback: str  # '  File "vit_exercises.py", line 12, in patchify\n    return x.reshape(...)\n'
    where: str | None  # "vit_exercises.py:12" of the innermost student frame, or None
    limit: str | None = None  # "the grader limits the memory of your code to 4096 MB"
    # the student function whose own code raised it ("patchify"), None when it was raised while
    # handling another exception or outside the student's files
    raised_in: str | None = None


@dataclass(frozen=True)
class CallOutcome:
    """What one call of a submission's function did, as the worker's reply says."""

    # "ok" | "raised" | "timeout" | "crashed" | "missing" | "not_callable" | "unloadable"
    status: str
    value: object = None  # decoded data when "ok"
    error: StudentError | None = None  # when "raised"
    message: str = ""  # human text for timeout, crashed, missing, ...
    stdout: str = ""  # what the call printed (truncated)
    seconds: float = 0.0
    mutated: tuple[str, ...] = ()  # "ok": the array arguments it changed in place (mutation.py)
    holds_returned: tuple[str, ...] = ()  # those of `mutated` holding the value it returned

    def not_written(self, name: str) -> bool:
        """Whether the function `name` is not written yet: its own code raised
        NotImplementedError. (A helper's stub raising through it makes `name` fail; no correct
        helper can make its own stub return.)"""
        return (self.status == "raised" and self.error.type == "NotImplementedError"
                and self.error.raised_in == name)


@dataclass(frozen=True)
class LoadProblem:
    """Something loading the submission met: where, and what."""

    where: str  # "vit_exercises.py:12" or "cell 7" or the file name
    message: str  # "SyntaxError: invalid syntax", "top-level code ran longer than 30 s"
    # a top-level statement that raised: the names it would have bound (worker/bound_names.py)
    # and its code, for the NameError they cause later (checks/unbound.py); not compared
    binds: tuple[str, ...] = field(default=(), compare=False)
    statement: str = field(default="", compare=False)


@dataclass(frozen=True)
class LoadReport:
    """What loading the submission gave: its top-level names, problems and output."""

    ok: bool  # False when nothing could be loaded (missing file, not .py/.ipynb, syntax error)
    names: dict[str, str]  # top-level name -> kind: "function", "class", "module", "dict", ...
    problems: tuple[LoadProblem, ...]
    stdout: str
    seconds: float
    stopped: tuple[str, ...] = ()  # top-level statements or cells stopped at their time limit
    hiding: Hiding | None = None  # what the worker says it hid (None: it did not say)
    notes: tuple[str, ...] = ()  # not problems: "graded the 5 marked code cell(s) of 9; ..."


@dataclass(frozen=True)
class Hiding:
    """How a worker hid the grader's secrets (worker/hiding.py, report()), as it said."""

    hidden: tuple[str, ...]  # secrets covered inside the view
    kept: tuple[str, ...]  # asked, but left visible: they hold the submission or its folder
    reason: str  # why there is no view of its own ("not running as root"), or what isolation
    # beside the view was refused, else ""
    mechanism: str = "none"  # "view" (namespaces), "permissions" (files root's alone), "none"
    seen: tuple[str, ...] = ()  # the folders of its view but its working folder
    readable: tuple[str, ...] = ()  # with permissions only: secrets its user can read


def call_outcome(header: dict, blobs) -> CallOutcome:
    """A CallOutcome from one reply of the worker."""
    status = header.get("status")
    stdout, seconds = text(header.get("stdout", "")), _seconds(header.get("seconds", 0.0))
    if status == "ok":
        value = Decoder(blobs, foreign_ok=True).decode(header.get("value"))
        mutated = tuple(text(where, 200) for where in _list(header.get("mutated", []))[:16])
        holds = tuple(where for where in _list(header.get("holds_returned", []))
                      if where in mutated)
        return CallOutcome("ok", value=value, stdout=stdout, seconds=seconds, mutated=mutated,
                           holds_returned=holds)
    if status == "timeout":  # stopped by its alarm, or it called a function known not to return
        return CallOutcome("timeout", stdout=stdout, seconds=seconds)
    if status == "raised":
        error = header.get("error")
        if type(error) is not dict:
            raise ProtocolError("a malformed reply (error)")
        optional = {key: None if error.get(key) is None else text(error[key], 200)
                    for key in ("where", "limit", "raised_in")}
        student_error = StudentError(type=text(error.get("type"), 200), **optional,
                                     message=text(error.get("message")),
                                     traceback=text(error.get("traceback")))
        return CallOutcome("raised", error=student_error, stdout=stdout, seconds=seconds)
    if status in ("missing", "not_callable"):
        return CallOutcome(status, message=text(header.get("message"), 1000))
    raise ProtocolError(f"a malformed reply (status {str(status)[:40]!r})")


def load_report(header: dict) -> LoadReport:
    names, problems = header.get("names"), header.get("problems")
    if header.get("op") != "loaded" or type(names) is not dict or type(problems) is not list:
        raise ProtocolError("a malformed load report")
    return LoadReport(
        ok=header.get("ok") is True,
        names={text(name, 1000): text(kind, 1000) for name, kind in names.items()},
        problems=tuple(_problem(item) for item in problems),
        stdout=text(header.get("stdout", "")), seconds=_seconds(header.get("seconds")),
        stopped=tuple(text(where, 1000) for where in _list(header.get("stopped", []))),
        notes=tuple(text(note, 1000) for note in _list(header.get("notes", []))[:10]),
        hiding=_hiding(header.get("hiding")))


def _hiding(value) -> Hiding | None:
    if value is None:
        return None
    if type(value) is not dict:
        raise ProtocolError("a malformed load report (hiding)")
    paths = {key: tuple(text(path, 4096) for path in _list(value.get(key, [])))
             for key in ("hidden", "kept", "seen", "readable")}
    return Hiding(**paths, reason=text(value.get("reason", ""), 1000),
                  mechanism=text(value.get("mechanism", "none"), 20))


def _list(value) -> list:
    if type(value) is not list or len(value) > 100_000:
        raise ProtocolError("a malformed reply (expected a list)")
    return value


def text(value, limit: int = 100_000) -> str:
    if type(value) is not str:
        raise ProtocolError(f"a malformed reply (expected text, got {type(value).__name__})")
    return value[:limit]


def _seconds(value) -> float:
    if type(value) is float or (type(value) is int and abs(value) < 2**53):
        return float(value)
    raise ProtocolError("a malformed reply (seconds)")


def _problem(value) -> LoadProblem:
    """A LoadProblem from [where, message] or [where, message, binds, statement]."""
    if type(value) is list and len(value) == 4:
        where, message, binds, statement = value
        binds = tuple(text(name, 200) for name in _list(binds)[:64])
        return LoadProblem(text(where, 1000), text(message), binds, text(statement, 1000))
    where, message = _pair(value)
    return LoadProblem(text(where, 1000), text(message))


def _pair(value) -> tuple:
    if type(value) is not list or len(value) != 2:
        raise ProtocolError("a malformed reply (expected a pair)")
    return tuple(value)
