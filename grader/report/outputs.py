"""Write every results file the settings ask for, at the end of a grading run.

Files are written atomically (temporary file, then rename), so an autograder never reads half of
one, and never through a symlink (safe_files.py); the Classroom result is one line appended to
$GITHUB_OUTPUT.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

from .safe_files import UnsafePathError, write_file_safely

FEEDBACK_FOLDER = "feedback"  # a class's feedback/<student>.md, beside report.html (grade-all)


def write_outputs(report, settings, junit_out: str | None = None) -> str | None:
    """Every results file `settings` asks for, and `vitgrade grade --junitxml`'s (pytest writes
    the plugin's); for a path through a link, no file and why (the run then exits 2)."""
    try:  # each format's module imported only when asked for: `vitgrade grade` starts fast
        if settings.json_out is not None:
            from .gradescope import gradescope_results

            write_json_atomic(settings.json_out, gradescope_results(report))
        if settings.prairielearn_out is not None:
            from .prairielearn import prairielearn_results

            write_json_atomic(settings.prairielearn_out, prairielearn_results(report))
        if junit_out is not None:
            from .junit import junit_xml

            write_text_atomic(junit_out, junit_xml(report), suffix=".xml")
        # only GitHub Actions sets GITHUB_OUTPUT: elsewhere no one would read the line
        if settings.classroom and os.environ.get("GITHUB_OUTPUT"):
            from .classroom import write_classroom_output

            write_classroom_output(report, os.environ["GITHUB_OUTPUT"])
    except UnsafePathError as error:  # a link planted where the results go
        return str(error)
    return None


def write_text_atomic(path: str | Path, text: str, suffix: str = ".tmp") -> None:
    """Write to a temporary file beside `path`, then rename: readers never see half a file, and
    no folder of `path` may be a symlink (UnsafePathError; safe_files.py). A lone surrogate
    (a student's message may hold one) is written as `\\udcff`, never a reason to fail."""
    write_file_safely(path, text.encode("utf-8", "backslashreplace"), suffix=suffix)


def write_json_atomic(path: str | Path, data: dict) -> None:
    """`data` as indented JSON (no NaN), written as `write_text_atomic` writes."""
    write_text_atomic(path, json.dumps(data, indent=2, allow_nan=False) + "\n", suffix=".json")
