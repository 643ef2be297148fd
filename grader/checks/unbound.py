"""A NameError for a name a top-level statement that failed at load would have bound.

The worker goes on after a top-level statement that raises (worker/submission.py), so a file
whose `from scipy.special import erf` fails where scipy is not installed still loads, with a
"b.py:5: ModuleNotFoundError" line at the top of the report; every call of a function that reads
`erf` then raises "NameError: name 'erf' is not defined", and the check's checklist ("Check the
pre-LN order ...") sent the student to look for a mistake in the block (blind round 70's b70_03
and b70_13). So where the failed case raised a NameError for a name that a statement which
failed while loading would have bound (LoadProblem.binds: worker/bound_names.py), the hint says
that line and its error, the cause of this failure whatever the rest of the code does, and what
to do; an import that failed for a missing module is told to use what the course provides.
"""
from __future__ import annotations

import re
from dataclasses import replace

from .results import FAILED, OBSERVATION, CheckResult

_NOT_DEFINED = re.compile(r"\bname '(?P<name>[^\W\d]\w*)' is not defined")
_NO_MODULE = ("ModuleNotFoundError", "ImportError")  # an import that cannot be made here


def unbound(result: CheckResult, outcome, load) -> CheckResult:
    """`result` with, as hint, the failed load line the NameError of `outcome` (the failed
    case's CallOutcome) comes from (the module's docstring); as it is otherwise. `load`: the
    submission's LoadReport, or None."""
    if (result.status != FAILED or load is None or getattr(outcome, "status", None) != "raised"
            or outcome.error.type != "NameError"):
        return result
    found = _NOT_DEFINED.search(outcome.error.message)
    if found is None:
        return result
    name = found.group("name")
    problem = next((p for p in load.problems if name in p.binds), None)
    if problem is None:
        return result
    return replace(result, hint=said(name, problem), hint_kind=OBSERVATION, misconception=None)


def loaded(memory):
    """The LoadReport of the worker `memory` (kinds/memory.Memory) holds, or None."""
    load = getattr(getattr(memory, "worker", None), "load", None)
    return load() if callable(load) else None


def said(name: str, problem) -> str:
    """"`erf` is not defined because line 5 (`from scipy.special import erf`) failed when your
    file was loaded: ModuleNotFoundError: ... ." and what to do (a notebook's: "the statement
    `...` in cell 3 (`...`) failed when your notebook was loaded")."""
    code = problem.statement if problem.statement and "`" not in problem.statement else ""
    file, _, line = problem.where.rpartition(":")
    if file and line.isdigit():
        place, loaded = f"line {line}" + (f" (`{code}`)" if code else ""), "file"
    else:  # a notebook's cell, said as the load report says it
        place = (f"the statement `{code}` in " if code else "") + problem.where
        loaded = "notebook"
    text = (f"`{name}` is not defined because {place} failed when your {loaded} was loaded: "
            f"{problem.message.rstrip('.')}.")
    if problem.message.startswith(_NO_MODULE):
        return text + (" That module is not installed where your code is graded: use only numpy "
                       "and the standard library (or what your course says you may use), and "
                       f"define `{name}` with them.")
    return text + f" Fix that line so that it runs and binds `{name}`."
