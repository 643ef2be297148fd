"""Write every results file the settings ask for, at the end of a grading run.

Each writer is atomic (temporary file, then rename), so an autograder never reads half a file.
"""
from __future__ import annotations

from .gradescope import gradescope_results, write_json_atomic


def write_outputs(report, settings) -> None:
    if settings.json_out is not None:
        write_json_atomic(settings.json_out, gradescope_results(report))
