"""What a property check works with: the student's functions called through the worker as if
local (`StudentCalls`, each call's value or `StudentCallFailed`), the values of calls sent
together (`Answers`), what a property is given (`PropertyContext`) and what it finds (`Verdict`).
The properties themselves are in properties.py."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from grader.worker.values import encode_call

from .cases import requests


class StudentCallFailed(Exception):
    """A student call that did not return a value: its `outcome` says why (kinds/property.py
    turns it into feedback)."""

    def __init__(self, name: str, outcome):
        self.name, self.outcome = name, outcome
        super().__init__(f"{name}: {outcome.status}")


class StudentCalls:
    """The student's functions as if local: `call(name, *args)` -> the decoded value, or
    StudentCallFailed; so property checks read like ordinary Python. `each(name, [args, ...])`
    sends many calls of one function as one request (one message each way, as a call check's
    cases are sent: a property's trials, drawn first)."""

    def __init__(self, worker):
        self.worker = worker

    def call(self, name: str, *args, **kwargs):
        return self.each(name, [args], [kwargs])[0]

    def each(self, name: str, calls: list[tuple], kwargs: list[dict] | None = None) -> Answers:
        encoded = [encode_call(args, extra)
                   for args, extra in zip(calls, kwargs or [{}] * len(calls), strict=True)]
        outcomes = []
        for request in requests(encoded, lambda call: call):
            outcomes += self.worker.call_many(name, request)
        return Answers(name, outcomes)


class Answers:
    """The values of calls sent together, in order. Reading one that did not return a value
    raises its StudentCallFailed: where the property, calling one at a time, would have."""

    def __init__(self, name: str, outcomes: list):
        self.name, self.outcomes = name, outcomes

    def __getitem__(self, index: int):
        outcome = self.outcomes[index]
        if outcome.status != "ok":
            raise StudentCallFailed(self.name, outcome)
        return outcome.value

    def returned(self, index: int):
        """The value call `index` returned, None when it returned none."""
        outcome = self.outcomes[index]
        return outcome.value if outcome.status == "ok" else None


@dataclass(frozen=True)
class Verdict:
    """What a property found: passed or not, what to say, which misconception it looks like."""
    passed: bool
    message: str = ""
    hint: str | None = None
    misconception: str | None = None
    judged: bool = True     # False: an output the property cannot read, so nothing was judged
    # False: found where the spec's hint does not look (its claim would be untrue of this
    # student's code), so the property's own hint, true of this finding, is said instead
    spec_hint: bool = True
    named: bool = False     # its hint names the cause, checked on every call it made
    # (function, whether every value it returned here is the expected one) for the functions a
    # property judges one by one (cost_ratio): which one differs, for dependencies._compared
    outputs: tuple[tuple[str, bool], ...] = ()


@dataclass
class PropertyContext:
    """What a property is given: the student's functions, its random generator, its options."""
    student: StudentCalls
    rng: np.random.Generator
    options: dict = field(default_factory=dict)
