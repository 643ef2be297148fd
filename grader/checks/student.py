"""Calling the student's functions from grading code, as if they were local.

`StudentCalls.call(name, *args)` returns the decoded value, or raises `StudentCallFailed`
carrying the worker's outcome, so property checks read like ordinary Python.
"""
from __future__ import annotations


class StudentCallFailed(Exception):
    def __init__(self, name: str, outcome):
        self.name, self.outcome = name, outcome
        super().__init__(f"{name}: {outcome.status}")


class StudentCalls:
    def __init__(self, worker, timeout: float | None = None):
        self.worker, self.timeout = worker, timeout

    def call(self, name: str, *args, **kwargs):
        outcome = self.worker.call(name, args, kwargs, timeout=self.timeout)
        if outcome.status != "ok":
            raise StudentCallFailed(name, outcome)
        return outcome.value

    def get(self, name: str):
        outcome = self.worker.get(name)
        if outcome.status != "ok":
            raise StudentCallFailed(name, outcome)
        return outcome.value
