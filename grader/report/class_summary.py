"""A class's results in numbers: pass rate and mean per exercise, the misconceptions it hit.

A misconception counts once per student (a combination `a+b` as each of its mistakes), named by
its title (labels.py) and placed in the functions whose checks detected it; what a property
check or a generalisation found where a spec's misconception was named for the same student is
that bug seen again, not counted (docs/lms.md, "The class report").
"""
from __future__ import annotations

import statistics
from dataclasses import dataclass, field

from grader.checks.results import PASSED, GradeReport

from .feedback_level import TIME_LIMIT_WORDS
from .labels import Labels


@dataclass
class Misconception:
    name: str            # "overlapping_windows_count", or for multiple choice "positions:speed"
    title: str           # "overlapping stride-1 windows" (labels.py)
    hint: str            # the hint students saw, first time it was met
    functions: list = field(default_factory=list)  # where it lives, in order of detection
    exercises: list = field(default_factory=list)
    students: set = field(default_factory=set)

    @property
    def where(self) -> str:
        """The functions it lives in, else (multiple choice) its exercises."""
        return ", ".join(self.functions) or ", ".join(self.exercises)


@dataclass(frozen=True)
class ClassSummary:
    students: int
    graded: list                   # (student, GradeReport) of every submission with a report
    not_graded: list               # (student, why)
    exercises: list                # (id, title, max points)
    pass_rate: dict                # exercise id -> share of graded students with full marks
    mean_score: dict               # exercise id -> mean points
    misconceptions: list           # Misconception, most students first
    time_limits: list = field(default_factory=list)  # (student, why) of those who hit one
    # exercise id -> {variant: (students with full marks, students)}, for exercises with variants
    by_variant: dict = field(default_factory=dict)


def summarise(rows: list[tuple[str, GradeReport | None, str | None]],
              labels: Labels | None = None) -> ClassSummary:
    """rows: (student id, report or None, why it could not be graded)."""
    labels = labels or Labels()
    graded = [(s, r) for s, r, _ in rows if r is not None]
    not_graded = [(s, why or "not graded") for s, r, why in rows if r is None]
    exercises: dict[str, tuple[str, str, float]] = {}
    for _, report in graded:
        for e in report.exercises:
            exercises.setdefault(e.id, (e.id, e.title, e.max_score))
    pass_rate, mean_score, by_variant = {}, {}, {}
    for ident in exercises:
        results = [e for _, r in graded for e in r.exercises if e.id == ident]
        passed = sum(e.status == PASSED for e in results)
        pass_rate[ident] = passed / len(results) if results else 0.0
        mean_score[ident] = statistics.fmean(e.score for e in results) if results else 0.0
        for e in results if any(e.variant is not None for e in results) else ():
            done, total = by_variant.setdefault(ident, {}).get(e.variant, (0, 0))
            by_variant[ident][e.variant] = (done + (e.status == PASSED), total + 1)
    return ClassSummary(len(rows), graded, not_graded, list(exercises.values()), pass_rate,
                        mean_score, misconceptions(graded, labels),
                        [(s, why) for s, r in graded if (why := time_limit(r))],
                        {k: dict(sorted(v.items(), key=str)) for k, v in by_variant.items()})


def time_limit(report: GradeReport) -> str:
    """Why a person should look at a submission whose grading hit a time limit ("" if none):
    its points may say more about the limit than about the code. A report that could not be
    loaded says why already."""
    if report.fatal:
        return ""
    hit = [e.id for e in report.exercises
           if any(word in (c.message or "") for c in e.checks for word in TIME_LIMIT_WORDS)]
    if not hit:
        return ""
    return (f"hit a time limit (a call timed out or the submission ran out of time) in "
            f"{', '.join(hit)}: see the feedback")


def misconceptions(graded: list[tuple[str, GradeReport]], labels: Labels) -> list[Misconception]:
    """Every misconception met, once per student, most students first."""
    found: dict[str, Misconception] = {}
    for student, report in graded:
        met = [(e, check, name, labels.function(e.id, check.name)) for e in report.exercises
               for check in e.checks if check.misconception
               for name in check.misconception.split("+")]
        named_in = {function for _, _, name, function in met if labels.spec_title(name)}
        for e, check, name, function in met:
            if not labels.spec_title(name) and function in named_in:
                continue  # the same bug, seen by another kind of check
            item = found.get(name)
            if item is None:
                hint = check.hint or ""
                item = found[name] = Misconception(name, labels.title(e.id, name, hint), hint)
            if function and function not in item.functions:
                item.functions.append(function)
            if e.id not in item.exercises:
                item.exercises.append(e.id)
            item.students.add(student)
    return sorted(found.values(), key=lambda m: (-len(m.students), m.title, m.name))
