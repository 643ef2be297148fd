"""The names a top-level statement binds when it runs to its end, read from its tree.

A statement that raised while the submission loaded bound none of them, and a function that
reads one later fails with `NameError` (blind round 70's b70_03: `from scipy.special import erf`
failed where scipy is not installed, and every call of `encoder_block` then raised "name 'erf'
is not defined"). The worker sends them with the load problem (LoadProblem.binds), so that the
grading side can say which failed line a NameError comes from (checks/unbound.py). Only
statements that bind whatever happens once they end: an import (not `*`), an assignment, a
`def`, a `class`; not a compound statement, whose branches may bind nothing.
"""
from __future__ import annotations

import ast

MOST_NAMES = 64  # names of one statement sent at most
SHOWN = 120  # characters of the statement's code sent at most


def bound_names(statement: ast.stmt) -> tuple[str, ...]:
    """The names `statement` binds at the top level once it has run (the module's docstring),
    in order, at most MOST_NAMES; () for any other statement."""
    if isinstance(statement, ast.Import | ast.ImportFrom):
        if any(alias.name == "*" for alias in statement.names):
            return ()
        names = [alias.asname or alias.name.partition(".")[0] for alias in statement.names]
    elif isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        names = [statement.name]
    elif isinstance(statement, ast.Assign):
        names = [n for target in statement.targets for n in _targets(target)]
    elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
        names = _targets(statement.target)
    else:
        return ()
    return tuple(dict.fromkeys(names))[:MOST_NAMES]


def _targets(target: ast.AST) -> list[str]:
    """The plain names an assignment's target binds (`a`, `a, (b, *c)`), not an item or an
    attribute of something else."""
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, ast.Starred):
        return _targets(target.value)
    if isinstance(target, ast.Tuple | ast.List):
        return [n for element in target.elts for n in _targets(element)]
    return []


def statement_code(source: str, statement: ast.stmt) -> str:
    """The statement's code on one line, cut to SHOWN characters ("" when it cannot be read)."""
    try:
        text = ast.get_source_segment(source, statement) or ""
    except Exception:  # noqa: BLE001 - hostile text: offsets past its end, odd encodings
        return ""
    text = " ".join(text.split())
    return text if len(text) <= SHOWN else text[:SHOWN - 3] + "..."
