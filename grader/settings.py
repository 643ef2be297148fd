"""Grader settings: option help, and resolving them once into a GraderSettings."""
from __future__ import annotations

from pathlib import Path
from typing import Callable

HELP = {
    "student": "grade this submission (a .py module or an .ipynb notebook)",
    "exercises": "folder of exercise specs (default: ./exercises of this project, else the course's installed ones)",
    "visible_only": "run only the visible cases (what students see); skip the hidden ones",
    "call_timeout": "seconds one call of a student function may take (default 10); then its worker is killed",
    "load_timeout": "seconds for loading the submission (default 30); top-level code is stopped after a third of it",
    "grade_json": "write Gradescope-format results to this file",
    "grade_feedback": "after the score table, print the feedback of every exercise that lost points",
    "grade_classroom": "write GitHub Classroom results (base64 JSON) to $GITHUB_OUTPUT as result=...",
    "grade_prairielearn": "write PrairieLearn external-grader results to this file",
    "memory_mb": "address-space limit of the worker running student code, in MB (default 4096)",
    "max_processes": "processes and threads the worker running student code may have at once (default 64)",
    "output_kb": "printed output of student code kept per call, in kB (default 64, at most 256)",
    "file_mb": "the largest file student code may write, its printed output included, in MB (default 64)",
}
MAX_OUTPUT_KB = 256  # more would not fit the worker's reply (grader/worker/protocol.py REPLY)


class SettingsError(ValueError):
    """A bad option value; the message names the option."""


def resolve_settings(getoption: Callable, invoked_in: Path):
    """GraderSettings from the options, or None when no --student was given."""
    from grader.session import GraderSettings
    from grader.spec.locate import find_exercises

    student = getoption("student")
    if not student:
        return None
    timeout = _positive(getoption("call_timeout"), "--call-timeout", "a positive number of seconds", float)
    memory_mb = _positive(getoption("memory_mb"), "--memory-mb", "a positive whole number of megabytes", int)
    load_timeout = _positive(getoption("load_timeout"), "--load-timeout", "a positive number of seconds", float)
    max_processes = _positive(getoption("max_processes"), "--max-processes", "a positive whole number", int)
    output_kb = _positive(getoption("output_kb"), "--output-kb", f"a whole number of kB from 1 to {MAX_OUTPUT_KB}", int)
    if output_kb is not None and output_kb > MAX_OUTPUT_KB:
        raise SettingsError(f"--output-kb must be a whole number of kB from 1 to {MAX_OUTPUT_KB}, not {output_kb}")
    file_mb = _positive(getoption("file_mb"), "--file-mb", "a positive whole number of megabytes", int)
    explicit = getoption("exercises")
    json_out = getoption("grade_json")
    prairielearn = getoption("grade_prairielearn")
    return GraderSettings(
        student=invoked_in / student,
        exercises=find_exercises(invoked_in / explicit if explicit else None, start=invoked_in),
        include_hidden=not getoption("visible_only"),
        call_timeout=timeout,
        json_out=(invoked_in / json_out) if json_out else None,
        feedback=bool(getoption("grade_feedback")),
        memory_mb=memory_mb,
        load_timeout=load_timeout,
        max_processes=max_processes,
        output_kb=output_kb,
        file_mb=file_mb,
        classroom=bool(getoption("grade_classroom")),
        prairielearn_out=(invoked_in / prairielearn) if prairielearn else None,
    )


def _positive(value, flag: str, what: str, kind):
    """`value` as a positive `kind`, or None when not given; a SettingsError names the flag."""
    if value is None:
        return None
    try:
        number = kind(value)
        if number <= 0:
            raise ValueError
    except ValueError:
        raise SettingsError(f"{flag} must be {what}, not {value!r}") from None
    return number
