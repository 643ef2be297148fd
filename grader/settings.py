"""Grader settings: option help, and resolving them once into a GraderSettings."""
from __future__ import annotations

from pathlib import Path
from typing import Callable

HELP = {
    "student": "grade this submission (a .py module or an .ipynb notebook)",
    "exercises": "folder of exercise specs (default: ./exercises of this project, else the course's installed ones)",
    "visible_only": "run only the visible cases (what students see); skip the hidden ones",
    "call_timeout": "seconds one call of a student function may take (default 10)",
    "grade_json": "write Gradescope-format results to this file",
    "grade_feedback": "after the score table, print the feedback of every exercise that lost points",
}


class SettingsError(ValueError):
    """A bad option value; the message names the option."""


def resolve_settings(getoption: Callable, invoked_in: Path):
    """GraderSettings from the options, or None when no --student was given."""
    from grader.session import GraderSettings
    from grader.spec.locate import find_exercises

    student = getoption("student")
    if not student:
        return None
    timeout = getoption("call_timeout")
    if timeout is not None:
        try:
            timeout = float(timeout)
            if timeout <= 0:
                raise ValueError
        except ValueError:
            raise SettingsError(f"--call-timeout must be a positive number of seconds, not {timeout!r}") from None
    explicit = getoption("exercises")
    json_out = getoption("grade_json")
    return GraderSettings(
        student=invoked_in / student,
        exercises=find_exercises(invoked_in / explicit if explicit else None, start=invoked_in),
        include_hidden=not getoption("visible_only"),
        call_timeout=timeout,
        json_out=(invoked_in / json_out) if json_out else None,
        feedback=bool(getoption("grade_feedback")),
    )
