"""What every kind of check answers: the protocol the loader, grading, compiling, the question
sheet and the reports call, so that none of them asks which kind a check is.

A kind is one module of this folder holding one frozen dataclass on `Kind` (and so on
`spec.model.Check`: name, points, line, hidden, visibility, hint, lines), with the methods below
that differ from these defaults. The registry (`__init__.py`) maps its spec key to it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from grader.spec.model import Check


@dataclass(frozen=True)
class Kind(Check):
    KEY: ClassVar[str] = ""  # the spec key that makes a check of this kind (`call:`)

    @classmethod
    def from_yaml(cls, raw: dict, common: dict) -> Kind:
        """The check from its schema-checked YAML `raw`; `common`: Check's fields, made."""
        raise NotImplementedError

    def problems(self, exercise, build_inputs: bool = False) -> list:
        """SpecErrors for the names it refers to that do not exist (the schema cannot know)."""
        return []

    def names_read(self) -> tuple[str, ...]:
        """The student names it calls or reads: its exercise's `uses:` must list them, and none
        is stood in for while it is graded (dependencies.py)."""
        return ()

    @property
    def function(self) -> str | None:
        """The student-API function whose own checks these are: a failure here makes it a
        broken helper for the checks built on it (dependencies.py)."""
        return None

    @property
    def subject(self) -> str:
        """What the class report says it grades ("patchify", 'ANSWERS["cls"]'; "": not said)."""
        return ""

    @property
    def regradable(self) -> bool:
        """Whether a failure may be graded again around the student's broken helpers."""
        return False

    def must_define(self, uses: tuple[str, ...]) -> tuple[str, ...]:
        """The names a submission must define before it is graded (else: not defined yet)."""
        return ()

    def planned_cases(self, exercise, plans) -> list:
        """Its cases (cases.PlannedCase), for the stand-ins' size budget."""
        return []

    def compiled(self, exercise, plans, secret=None) -> dict:
        """{table: value} that `vitgrade compile` stores for it under its name; `secret`: what
        `sealed` kept back, for the student bundle."""
        return {}

    def sealed(self, raw: dict) -> tuple[dict, object]:
        """(its YAML for the student bundle, what compile must seal for it, or None)."""
        return raw, None

    def grade(self, exercise, worker, timeout, plans):
        """Its CheckResult for the submission in `worker` (a StudentWorker, or one with
        stand-ins); raises inputs.InputError or cases.NotCompiled for a spec it cannot run."""
        raise NotImplementedError

    def misconception_titles(self) -> dict[str, str]:
        """The class report's title of each misconception its results may name."""
        return {}

    def examples(self) -> list[str]:
        """Lines of the question sheet's `>>>` examples (its visible cases)."""
        return []

    def sheet_notes(self) -> list[str]:
        """Markdown lines the question sheet shows for it (how to answer)."""
        return []
