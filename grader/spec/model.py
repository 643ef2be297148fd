"""What a loaded exercise spec is: frozen dataclasses, no behaviour.

`Check` holds what every kind of check has; each kind (a function call, a multiple-choice
answer, a property) adds its own fields and behaviour in its module (grader/checks/kinds/).
Input expressions (args, expect) stay as the YAML wrote them; `grader.checks.inputs` turns
them into values when a check runs.
"""
from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Check:
    """One graded check: what every kind has."""
    name: str
    points: float
    line: int                        # where it starts in the spec file
    hidden: bool = False
    visibility: str = "visible"
    hint: str | None = None
    feedback: str | None = None      # its feedback level (grader/report/feedback_level.py)
    opens: dict | None = None        # level -> {attempts: N} or {after: "due" | date}
    # line of each key and value inside the check, by its path from the check: ("call",),
    # ("misconceptions", 0, "like"), ("cases", 1, "args", 0)
    lines: dict = field(default_factory=dict, compare=False, repr=False)

    def line_of(self, *path) -> int:
        """The line of `path` inside the check, else of its nearest enclosing key, else `line`."""
        return nearest_line(self.lines, path) or self.line


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
    """One spec, loaded: its checks, the student names they use, where each value was written."""
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
    feedback: str | None = None  # its checks' feedback level, unless a check gives its own
    opens: dict | None = None  # and when more opens (Check.opens), unless a check says
    folder: str = ""  # the spec file's own folder, absolute: relative checkpoint folders are there
    lines: dict = field(default_factory=dict, compare=False, repr=False)  # path -> line, as Check's
    # per-student variants (grader/checks/variants.py): which one this is, every variant's values
    # (none: the spec declares none), and the spec's data before they were filled in
    variant: int = 0
    variants: tuple = field(default=(), compare=False, repr=False)
    data: dict = field(default_factory=dict, compare=False, repr=False)

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
