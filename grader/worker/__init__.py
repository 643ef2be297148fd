"""Running student code in another process: the zygote, the worker, the data-only channel.

The grading side uses `StudentWorker` (and `prestart_zygote()` as early as possible); nothing of
the submission ever runs or is unpickled in the grading process. Which module does what:
docs/architecture.md, "The trust boundary". The names below are imported on first use, so that
the zygote imports only what a worker needs.
"""

from typing import TYPE_CHECKING

_HOMES = {"CallOutcome": "outcomes", "ForeignObject": "values", "Limits": "limits",
          "LoadProblem": "outcomes", "LoadReport": "outcomes", "StudentError": "outcomes",
          "StudentWorker": "student_worker", "Zygote": "zygote_handle",
          "prestart_zygote": "zygote_handle"}
__all__ = ["CallOutcome", "ForeignObject", "Limits", "LoadProblem", "LoadReport", "StudentError",
           "StudentWorker", "Zygote", "prestart_zygote"]

if TYPE_CHECKING:
    from grader.worker.limits import Limits
    from grader.worker.outcomes import CallOutcome, LoadProblem, LoadReport, StudentError
    from grader.worker.student_worker import StudentWorker
    from grader.worker.values import ForeignObject
    from grader.worker.zygote_handle import Zygote, prestart_zygote


def __getattr__(name: str):
    if name in _HOMES:
        import importlib

        return getattr(importlib.import_module(f"grader.worker.{_HOMES[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
