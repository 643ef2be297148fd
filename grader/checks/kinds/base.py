"""The protocol every kind of check answers, so that the loader, grading, compiling, the
question sheet and the reports never ask which kind a check is. A kind is a frozen dataclass
on `Kind` (so on spec.model.Check) overriding what differs from these defaults."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from grader.spec.model import Check

from ..api import SHIPPED, StudentApi
from ..compare import Compare


@dataclass(frozen=True)
class Kind(Check):
    """What every kind of check has beyond spec.model.Check: its folder and student API."""
    KEY: ClassVar[str] = ""  # the spec key that makes a check of this kind (`call:`)
    folder: str = field(default="", compare=False, repr=False)  # its exercises folder
    # the student API its exercises folder grades, the shipped one and the course's
    # (api.student_api): the loader looks it up once per load, as it stats every spec
    api: StudentApi = field(default=SHIPPED, compare=False, repr=False)

    @classmethod
    def from_yaml(cls, raw: dict, common: dict) -> Kind:
        """The check of its schema-checked YAML `raw`; `common`: Check's fields, made."""
        raise NotImplementedError

    def grade(self, exercise, worker, plans):
        """Its CheckResult for the submission in `worker` (a StudentWorker, or one with
        stand-ins); raises inputs.InputError or cases.NotCompiled for a spec it cannot run."""
        raise NotImplementedError

    def grade_deferred(self, exercise, worker, plans):
        """(its CheckResult, what explains a failure, or None): `grade`, with the costly part of
        explaining a failure (the error model's search: kinds/mistakes.py) left as a function of
        the result, run only on the check's final verdict (dependencies.py), not on a verdict a
        regrade around broken helpers replaces."""
        return self.grade(exercise, worker, plans), None

    def problems(self, exercise, build_inputs: bool = False) -> list:
        """SpecErrors for the names it refers to that do not exist (the schema cannot know)."""
        return []

    def names_read(self) -> tuple[str, ...]:
        """The student names it calls or reads: `uses:` lists them."""
        return ()

    def names_tested(self) -> tuple[str, ...]:
        """Those of `names_read` it grades: never stood in for (dependencies.py). The others
        (a property's yardstick, properties.PROPERTY_AGAINST) are stood in for where the
        student's own fails its own checks, as a helper is."""
        return self.names_read()

    @property
    def function(self) -> str | None:
        """The student function whose own checks these are (its failure makes it a broken
        helper of the checks built on it: dependencies.py)."""
        return None

    @property
    def subject(self) -> str:
        """What the class report says it grades ("patchify", 'ANSWERS["cls"]', or "")."""
        return self.function or ""

    @property
    def regradable(self) -> bool:
        """Whether a failure may be graded again around the student's broken helpers."""
        return False

    @property
    def stand_in_tolerance(self) -> Compare:
        """How close a stand-in call's arguments must be to a call the solution made
        (stand_ins.py): the default allclose, unless the kind compares in its own way."""
        return Compare()

    def plan(self, folder: str | None = None) -> list:
        """Its cases (cases.PlannedCase) computed with the reference (`folder`: the spec's), or
        (`from_compiled`) read from their compiled entries, None when those do not fit: none
        for a kind without cases."""
        return []

    def from_compiled(self, entries) -> list | None:
        return []

    def reference_functions(self) -> tuple[str, ...]:
        """The reference functions its expected values come from; `undetectable`: SpecErrors
        for what its cases cannot tell from them (validate asks it of the course's own)."""
        return ()

    def undetectable(self, exercise) -> list:
        return []

    def must_define(self, uses: tuple[str, ...]) -> tuple[str, ...]:
        """What a submission must define before it is graded (else: not defined yet)."""
        return ()

    def compiled(self, exercise, plans, secret=None) -> dict:
        """{table: value} `vitgrade compile` stores under its name; `secret`: what `sealed`
        kept back from the student bundle."""
        return {}

    def sealed(self, raw: dict) -> tuple[dict, object]:
        """(its YAML for the student bundle, what compile must seal for it, or None)."""
        return raw, None

    def misconception_titles(self) -> dict[str, str]:
        """The class report's title of each misconception its results may name."""
        return {}

    def listed_variants(self) -> tuple[str, ...]:
        """The known-wrong variants its spec lists (`misconceptions:`, each one's `like`): compile
        records which error-model mistake each is, for the student bundle."""
        return ()

    def examples(self) -> list[str]:
        """The question sheet's `>>>` lines for it; `sheet_notes`: its markdown lines."""
        return []

    def sheet_notes(self) -> list[str]:
        return []
