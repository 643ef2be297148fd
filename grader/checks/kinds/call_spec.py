"""The entries of a function check's spec (`call:`, kinds/call.py): one of its cases (arguments
as expressions, the value or exception expected), its generator of cases (`generate:`) and
one of the known-wrong versions it names (`misconceptions:`)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Case:
    """One of the spec's cases: arguments (expressions), and the value or exception expected."""
    args: tuple
    kwargs: dict = field(default_factory=dict)
    expect: Any = None
    has_expect: bool = False
    raises: str | None = None
    hint: str | None = None


@dataclass(frozen=True)
class Generate:
    """`generate:`: `count` cases made by a named generator (generators.py) from `seed`."""
    generator: str
    count: int = 10
    seed: int = 0
    options: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Misconception:
    """A known-wrong version the check names when the student's output matches it."""
    like: str                        # its name (reference/misconceptions.py, or the course's)
    hint: str
    title: str | None = None         # what the class report calls it ("causal mask by default")
    exact_hint: str | None = None    # said instead where the values are its own exactly, not
    # only within the check's tolerance (kinds/exact.py): the one cause a near miss would share
