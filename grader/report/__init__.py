"""Reports of a graded submission: terminal text and platform JSON (no pytest in here)."""
from .gradescope import gradescope_results
from .outputs import write_json_atomic
from .terminal import exercise_feedback, report_header, score_table

__all__ = ["gradescope_results", "write_json_atomic", "exercise_feedback", "report_header",
           "score_table"]
