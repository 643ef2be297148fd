"""Grading: cases -> worker calls -> comparison -> verdicts (no pytest in here)."""
from .grade import Options, grade_exercise
from .results import CheckResult, ExerciseResult, GradeReport
from .validate import validate_exercise

__all__ = ["Options", "grade_exercise", "CheckResult", "ExerciseResult", "GradeReport",
           "validate_exercise"]
