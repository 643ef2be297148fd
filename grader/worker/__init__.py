"""Running student code in another process: the zygote, the worker, the data-only protocol.

The grading side uses `StudentWorker` (and `prestart_zygote()` as early as possible); nothing of
the submission ever runs or is unpickled in the grading process. See docs/architecture.md.

The names below are imported on first use, so that the zygote (`python -m grader.worker.zygote`)
imports only what a worker needs, and `prestart_zygote()` is cheap to reach.
"""

from typing import TYPE_CHECKING

__all__ = [
    "CallOutcome",
    "ForeignObject",
    "Limits",
    "LoadProblem",
    "LoadReport",
    "StudentError",
    "StudentWorker",
    "Zygote",
    "prestart_zygote",
]

if TYPE_CHECKING:
    from grader.worker.client import (
        CallOutcome,
        ForeignObject,
        Limits,
        LoadProblem,
        LoadReport,
        StudentError,
        StudentWorker,
        Zygote,
        prestart_zygote,
    )


def __getattr__(name: str):
    if name in __all__:
        from grader.worker import client

        return getattr(client, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
