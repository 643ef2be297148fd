"""Which of the submission's top-level functions each of its functions can reach, read from the
code (nothing runs): what lets the grader skip grading a check again around a broken helper
that the function under test never reaches (checks/dependencies.py).

A function reaches the top-level names its code reads (nested functions, lambdas and
comprehensions included), the top-level functions its defaults and closure cells hold, the ones
held in a top-level list, tuple, set or dict it reads, and all that those reach in turn. Where
the code could reach a function without naming it (`globals()`, `eval`, `getattr`..., a class,
an object or a wrapped function of the student's, a module outside the Python installation),
its reach is unknown and it is left out: the grader then grades again as it would without this.
The grading side trusts none of it: a wrong answer can only cost the submission a regrade that
would have helped it.
"""
from __future__ import annotations

import os
import sys
import types

import numpy as np

MAX_FUNCTIONS = 500  # a larger namespace: nothing is said (every regrade happens)
MAX_ITEMS = 1000     # of a top-level container looked through
# names through which code can reach a top-level function without naming it
DYNAMIC = frozenset({"globals", "locals", "vars", "eval", "exec", "getattr", "setattr",
                     "__import__", "__dict__", "__globals__", "__builtins__", "__closure__",
                     "__defaults__", "__kwdefaults__", "compile", "sys", "builtins",
                     "importlib", "inspect", "gc"})
PLAIN = frozenset({int, float, complex, str, bytes, bool, type(None), np.ndarray})
LIBRARY = tuple(os.path.realpath(p) + os.sep for p in {sys.prefix, sys.base_prefix,
                                                        sys.exec_prefix})


class Unknown(Exception):
    """The code could reach a function without naming it."""


def reaches(namespace: dict) -> dict[str, list[str]]:
    """Top-level function name -> the top-level functions it can reach (sorted); a function
    whose reach is unknown is left out."""
    functions = {name: value for name, value in namespace.items()
                 if type(name) is str and type(value) is types.FunctionType
                 and value.__globals__ is namespace}
    if len(functions) > MAX_FUNCTIONS:
        return {}
    names_of = {id(value): name for name, value in functions.items()}
    direct = {}
    for name, function in functions.items():
        try:
            direct[name] = _direct(function, namespace, names_of)
        except Unknown:
            direct[name] = None
    found = {}
    for name in functions:
        reached = _closure(name, direct)
        if reached is not None:
            found[name] = sorted(reached)
    return found


def _direct(function: types.FunctionType, namespace: dict, names_of: dict) -> set[str]:
    """The top-level functions `function` itself refers to; Unknown where it cannot be told."""
    read: set[str] = set()
    codes = [function.__code__]
    while codes:
        code = codes.pop()
        read.update(code.co_names)
        codes += [c for c in code.co_consts if type(c) is types.CodeType]
    if read & DYNAMIC:
        raise Unknown
    held = [*(function.__defaults__ or ()), *(function.__kwdefaults__ or {}).values()]
    for cell in function.__closure__ or ():
        try:
            held.append(cell.cell_contents)
        except ValueError:  # a cell not filled yet
            continue
    found: set[str] = set()
    for value in held + [namespace[name] for name in read if name in namespace]:
        found |= _functions_in(value, names_of, depth=0)
    return found


def _functions_in(value, names_of: dict, depth: int) -> set[str]:
    """The top-level functions `value` is or holds; Unknown for what could call one unseen."""
    if depth > 3:
        raise Unknown
    kind = type(value)  # never isinstance: a student's object could fake its __class__
    if kind is types.FunctionType:
        if id(value) in names_of:
            return {names_of[id(value)]}
        if _library(value):  # numpy's own Python code (the function behind np.mean)
            return set()
        raise Unknown  # a nested or another module's function, held by value
    if kind in PLAIN or issubclass(kind, np.generic):
        return set()
    if kind in (list, tuple, set, frozenset, dict):
        items = list(value.values()) if kind is dict else list(value)
        if len(items) > MAX_ITEMS:
            raise Unknown
        return set().union(*(_functions_in(item, names_of, depth + 1) for item in items))
    if kind is types.ModuleType:
        if _library(value):
            return set()
        raise Unknown
    if not _library(value if issubclass(kind, type) else kind):
        raise Unknown  # a class or an object of the student's
    if issubclass(kind, type):
        return set()
    # a library wrapper (np.mean, functools.partial, a bound method) holds what it calls
    held = [getattr(value, attr) for attr in ("__wrapped__", "func", "pyfunc", "__self__")
            if hasattr(value, attr)]
    held += list(getattr(value, "args", None) or ()) if isinstance(
        getattr(value, "args", None), tuple) else []
    keywords = getattr(value, "keywords", None)
    held += list(keywords.values()) if isinstance(keywords, dict) else []
    return set().union(*(_functions_in(item, names_of, depth + 1) for item in held))


def _library(value) -> bool:
    """A module, class or function of the Python installation (numpy, the standard library):
    its own code calls the student's functions only when handed them."""
    if type(value) is types.ModuleType:
        module = value
    elif type(value) is types.FunctionType:
        module = sys.modules.get(value.__globals__.get("__name__") or "")
    else:
        module = sys.modules.get(getattr(value, "__module__", None) or "")
    if module is None:
        return False
    path = getattr(module, "__file__", None)
    return path is None or os.path.realpath(path).startswith(LIBRARY)


def _closure(start: str, direct: dict) -> set[str] | None:
    """Every top-level function `start` reaches, through the ones it reaches; None: unknown."""
    reached: set[str] = set()
    todo = [start]
    while todo:
        names = direct[todo.pop()]
        if names is None:
            return None
        for name in names - reached:
            reached.add(name)
            todo.append(name)
    return reached
