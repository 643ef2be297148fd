"""Loading the exercises a run grades: each spec loaded and validated, in one place (from what
`vitgrade compile` kept of it while that is fresh: compiled.checked_spec).

The pytest plugin, batch grading and `check()` all use these, so a spec is accepted or refused
the same way everywhere, and a refused one costs only its own exercise.
"""

from __future__ import annotations

from pathlib import Path

from grader.spec import SpecError, load_spec, load_specs
from grader.spec.model import Exercise

from . import compiled
from .validate import validate_exercise


def load_exercise(path: str | Path) -> Exercise:
    """One spec, loaded and validated; SpecError (file:line) for the first problem."""
    exercise = load_kept_or_parsed(Path(path))
    problems = validate_exercise(exercise)
    if problems:
        raise problems[0]
    return exercise


def load_kept_or_parsed(path: Path) -> Exercise:
    """The spec as its fresh compiled index kept it, else as its YAML reads (load_spec)."""
    checked = compiled.checked_spec(path)
    if checked is not None:
        try:
            return load_spec(path, checked=checked)
        except (KeyError, TypeError, ValueError, AttributeError):
            pass  # kept data that does not build (an index edited by hand): the YAML says why
    return load_spec(path)


def load_exercises(folder: str | Path) -> tuple[list[Exercise], list[SpecError]]:
    """The exercises of `folder` that load and validate, in order, and one error per other spec."""
    exercises, errors = load_specs(Path(folder), load_kept_or_parsed)
    good = []
    for exercise in exercises:
        problems = validate_exercise(exercise)
        errors += problems[:1]
        if not problems:
            good.append(exercise)
    return good, [error for error in errors if isinstance(error, SpecError)]
