"""What a loaded exercise spec is: frozen dataclasses, no behaviour.

Input expressions (args, expect) stay as the YAML wrote them; `grader.checks.inputs`
turns them into values when a check runs.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Case:
    args: tuple
    kwargs: dict = field(default_factory=dict)
    expect: Any = None
    has_expect: bool = False
    raises: str | None = None
    hint: str | None = None


@dataclass(frozen=True)
class Generate:
    generator: str
    count: int = 10
    seed: int = 0
    options: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Compare:
    mode: str = "allclose"          # count | equal | allclose
    rtol: float = 1e-5
    atol: float = 1e-6


@dataclass(frozen=True)
class Misconception:
    like: str                        # name in grader.reference.misconceptions
    hint: str
    title: str | None = None         # what the class report calls it ("causal mask by default")


@dataclass(frozen=True)
class Check:
    """One graded check. Exactly one of `call`, `answer_key`, `property_name` is set."""
    name: str
    points: float
    line: int                        # where it starts in the spec file
    hidden: bool = False
    visibility: str = "visible"
    hint: str | None = None
    # function checks
    call: str | None = None
    cases: tuple[Case, ...] = ()
    generate: Generate | None = None
    reference: str | None = None
    compare: Compare | None = None
    misconceptions: tuple[Misconception, ...] = ()
    # graded on the student's whole pipeline, never around broken helpers (checks/dependencies.py)
    integration: bool = False
    # multiple-choice checks
    answer_key: str | None = None
    answer_correct: str | None = None
    answer_options: dict = field(default_factory=dict)
    # property checks
    property_name: str | None = None
    options: dict = field(default_factory=dict)
    seed: int = 0
    # line of each key and value inside the check, by its path from the check: ("call",),
    # ("misconceptions", 0, "like"), ("cases", 1, "args", 0)
    lines: dict = field(default_factory=dict, compare=False, repr=False)

    def line_of(self, *path) -> int:
        """The line of `path` inside the check, else of its nearest enclosing key, else `line`."""
        return nearest_line(self.lines, path) or self.line

    @property
    def kind(self) -> str:
        return "call" if self.call else "answer" if self.answer_key else "property"


@dataclass(frozen=True)
class ExerciseLimits:
    """The worker's limits while an exercise is graded (its `limits:` but call_timeout); None:
    the run's own (command line, else the default)."""
    memory_mb: int | None = None
    max_processes: int | None = None
    output_kb: int | None = None
    file_mb: int | None = None


@dataclass(frozen=True)
class Exercise:
    id: str
    title: str
    lecture: str
    uses: tuple[str, ...]
    checks: tuple[Check, ...]
    path: str
    question: str = ""
    order: int = 0
    call_timeout: float | None = None
    limits: ExerciseLimits = ExerciseLimits()
    folder: str = ""  # the spec file's own folder, absolute: relative checkpoint folders are there
    lines: dict = field(default_factory=dict, compare=False, repr=False)  # path -> line, as Check's

    def line_of(self, *path) -> int | None:
        """The line of `path` (("id",), ("checks", 2, "call")), else of its nearest enclosing
        key."""
        return nearest_line(self.lines, path)

    @property
    def points(self) -> float:
        return sum(c.points for c in self.checks)


def nearest_line(lines: dict, path: tuple) -> int | None:
    """The line of `path` in `lines`, else of its nearest enclosing path (None: not in the file)."""
    while path not in lines and path:
        path = path[:-1]
    return lines.get(path)
