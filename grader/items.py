"""The pytest collector and item: a view over the driver's catalogue (grader/driver.py), one
spec file -> an item per exercise it holds, or one per spec error in it.

Only pytest's public API: `pytest.File`, `pytest.Item`, `from_parent`, `item.stash`.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from grader.checks.results import PASSED
from grader.report.terminal import exercise_feedback

DRIVER_KEY = pytest.StashKey["object"]()      # the Driver, on config.stash
SESSION_KEY = pytest.StashKey["object"]()     # the GradingSession, on config.stash
RESULT_KEY = pytest.StashKey["object"]()      # an ExerciseResult, on item.stash


class ExerciseFailed(Exception):
    """Raised by an item whose exercise lost points; rendered by `repr_failure`."""

    def __init__(self, result):
        self.result = result


class SpecFile(pytest.File):
    def collect(self):
        catalogue = self.config.stash[DRIVER_KEY].catalogue
        here = self.path.resolve()
        for exercise in catalogue.exercises:
            if Path(exercise.path).resolve() == here:
                yield ExerciseItem.from_parent(self, name=exercise.id, exercise=exercise)
        for error in catalogue.errors:
            if Path(error.path).resolve() == here:
                yield SpecErrorItem.from_parent(self, name=self.path.stem, error=error)


class ExerciseItem(pytest.Item):
    def __init__(self, *, exercise, **kwargs):
        super().__init__(**kwargs)
        self.exercise = exercise
        self.exercise_id = exercise.id
        self.user_properties.append(("points", exercise.points))

    def runtest(self):
        result = self.config.stash[SESSION_KEY].grade(self.exercise)
        self.stash[RESULT_KEY] = result
        self.user_properties.append(("score", result.score))
        if result.status != PASSED:
            raise ExerciseFailed(result)

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, ExerciseFailed):
            return exercise_feedback(excinfo.value.result)
        return f"internal grader error while grading {self.exercise.id}: {excinfo.exconly()}\n" \
               f"(this is a bug in vit-grader, not in your code: please report it)"

    def reportinfo(self):
        return self.path, None, f"{self.exercise.id}: {self.exercise.title}"


class SpecErrorItem(pytest.Item):
    """Stands for a spec that could not be loaded, so its error shows and the others still grade."""

    def __init__(self, *, error, **kwargs):
        super().__init__(**kwargs)
        self.error = error

    def runtest(self):
        raise self.error

    def repr_failure(self, excinfo, style=None):
        return f"{self.error} (this exercise is not graded; fix the spec)"

    def reportinfo(self):
        return self.path, None, f"spec error in {self.path.name}"
