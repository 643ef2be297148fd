"""A test submission: the solution with one of its functions rewritten, graded on one exercise
and its hints said in the student's terms, as a report says them (report/spelled.finished)."""
from __future__ import annotations

import ast

from conftest import SOLUTION


def graded_one(catalogue, tmp_path, code: str, exercise: str):
    """The ExerciseResult of `exercise` for the solution whose function of `code`'s name is
    `code` (a def at its top level), its hints finished against that submission's source."""
    from grader.checks import SubmissionGrading
    from grader.report.quotes import Source
    from grader.report.spelled import finished
    from grader.worker import StudentWorker

    name = ast.parse(code.strip()).body[0].name
    solution = SOLUTION.read_text()
    start = solution.index(f"def {name}(")
    end = solution.index("\ndef ", start)
    text = solution[:start] + code.strip() + "\n\n" + solution[end:]
    path = tmp_path / "vit_exercises.py"
    path.write_text(text)
    chosen = [e for e in catalogue if e.id == exercise]
    with StudentWorker(path) as worker:
        result = SubmissionGrading(worker, catalogue=chosen).exercise(chosen[0])
    return finished(result, Source([text]))
