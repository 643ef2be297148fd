"""The parameter names a student's def declares, read off its AST (report/helper_place.py maps a
call's arguments onto them by position; fixed_axis.py asks whether one is read; fixed_size.py
whether a name is bound by one). Nothing here runs student code."""
from __future__ import annotations

import ast


def parameters(function: ast.FunctionDef | ast.AsyncFunctionDef,
               starred: bool = False) -> list[str]:
    """Its parameters' names in order: positional-only, positional, keyword-only; with
    `starred`, its `*args` and `**kwargs` names too."""
    a = function.args
    named = [p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs)]
    return named + ([p.arg for p in (a.vararg, a.kwarg) if p] if starred else [])
