"""Cross-reference checks of a loaded spec: does every name it mentions exist?

The schema knows shapes of YAML; only the grading layer knows which reference
functions, generators, properties and misconceptions are registered.
"""
from __future__ import annotations

import difflib

from grader.spec.errors import SpecError
from grader.spec.model import Exercise

from . import inputs
from .answer_key import SEALED
from .api import MISCONCEPTION_NAMES, SIGNATURES, names_read
from .generators import GENERATORS
from .properties import PROPERTIES


def validate_exercise(exercise: Exercise, build_inputs: bool = False) -> list[SpecError]:
    """Problems with the names an exercise refers to; `build_inputs` also builds each literal
    case."""
    errors = []

    def unknown(line, what, name, known):
        close = difflib.get_close_matches(name, list(known), n=1)
        tip = f"; did you mean '{close[0]}'?" if close else ""
        errors.append(SpecError(exercise.path, line, f"unknown {what} '{name}'{tip}"))

    for check in exercise.checks:
        if check.kind == "call":
            reference = check.reference or check.call
            needs_reference = check.generate is not None or any(
                not c.has_expect and not c.raises for c in check.cases)
            if needs_reference and reference not in SIGNATURES:
                line = check.line_of("reference" if check.reference else "call")
                unknown(line, "reference function", reference, SIGNATURES)
            if check.generate and check.generate.generator not in GENERATORS:
                unknown(check.line_of("generate", "generator"), "generator",
                        check.generate.generator, GENERATORS)
            if not check.cases and not check.generate:
                errors.append(SpecError(exercise.path, check.line,
                                        f"check '{check.name}' has neither cases nor generate"))
            for i, m in enumerate(check.misconceptions):
                if m.like not in MISCONCEPTION_NAMES:
                    unknown(check.line_of("misconceptions", i, "like"), "misconception", m.like,
                            sorted(MISCONCEPTION_NAMES))
            if build_inputs:
                errors += _build_all(exercise, check)
        elif check.kind == "answer":
            # SEALED: the student bundle's, whose right answer is in its compiled data only
            if check.answer_correct not in check.answer_options and check.answer_correct != SEALED:
                errors.append(SpecError(exercise.path, check.line_of("answer", "correct"),
                                        f"the correct answer '{check.answer_correct}' is not "
                                        "among the options"))
        elif check.property_name not in PROPERTIES:
            unknown(check.line_of("property"), "property check", check.property_name, PROPERTIES)
    errors += _unlisted_uses(exercise)
    return errors


def _unlisted_uses(exercise: Exercise) -> list[SpecError]:
    """One error per check that calls or reads a student name `uses:` does not list."""
    errors = []
    for check in exercise.checks:
        unlisted = [n for n in dict.fromkeys(names_read(check)) if n not in exercise.uses]
        if unlisted:
            errors.append(SpecError(exercise.path, exercise.line_of("uses") or check.line,
                                    f"check '{check.name}' reads {', '.join(unlisted)}, which "
                                    f"uses: does not list (uses: names every student name the "
                                    f"exercise's checks call or read)"))
    return errors


def _build_all(exercise, check) -> list[SpecError]:
    errors = []
    for i, case in enumerate(check.cases):
        values = [(("cases", i, "args", j), a) for j, a in enumerate(case.args)]
        if case.has_expect:
            values.append((("cases", i, "expect"), case.expect))
        for path, expr in values:
            try:
                inputs.evaluate(expr, exercise.folder or None)
            except inputs.InputError as exc:
                errors.append(SpecError(exercise.path, check.line_of(*path),
                                        f"check '{check.name}': {exc}"))
                break  # one message per case
    return errors
