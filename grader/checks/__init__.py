"""Grading: cases -> worker calls -> comparison -> verdicts (no pytest in here)."""
from .grade import Options, SubmissionGrading, grade_exercise
from .results import CheckResult, ExerciseResult, GradeReport

__all__ = ["Options", "SubmissionGrading", "grade_exercise", "CheckResult", "ExerciseResult",
           "GradeReport"]
