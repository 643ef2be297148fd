"""The rewritten reference run on one call (the error model's search, __init__.py): each rewrite
compiled once per process, and its value on the same inputs computed once per process too. A
class's students fail the same cases of the same checks, and each search tries the same singles
on them first: grading a class, most runs repeat one already made (about 4 in 5 on the buggy
fixtures), so the value is looked up, and a rewrite whose values are all known is not even
compiled. Bounded: MAX_KEPT compiled rewrites per function, KEPT_ELEMENTS array elements and
KEPT_VALUES values per process; inputs that are not plain data (an object array) are never
looked up.
"""
from __future__ import annotations

import hashlib
from collections.abc import Callable

import numpy as np

from .evidence import elements, fresh
from .tree import Edit, Instance, compile_with

MAX_KEPT = 2000               # compiled rewrites kept per function, for the next check or student
KEPT_ELEMENTS = 4_000_000     # the values' array elements kept per process (~32 MB of float64)
KEPT_VALUES = 100_000         # and values (a raise, a count: one element each; ~20 MB of keys)
MAX_VALUE_ELEMENTS = 50_000   # a larger value is computed again, never kept
kept = {"elements": 0, "values": 0}  # what the values kept so far hold


def inputs_key(args: tuple, kwargs: dict) -> str | None:
    """A digest of a call's inputs (types, dtypes, shapes, exact bytes); None when some input is
    not plain data (numbers, strings, arrays of numbers, and tuples, lists and dicts of them)."""
    digest = hashlib.blake2b(digest_size=20)

    def add(value) -> bool:
        if isinstance(value, np.ndarray):
            if value.dtype.hasobject:
                return False
            digest.update(f"a{value.dtype.str}{value.shape}".encode())
            digest.update(np.ascontiguousarray(value).tobytes())
            return True
        if isinstance(value, (list, tuple)):
            digest.update(f"{type(value).__name__}{len(value)}".encode())
            return all(add(item) for item in value)
        if isinstance(value, dict):
            digest.update(f"d{len(value)}".encode())
            return all(isinstance(name, str) and add(name) and add(item)
                       for name, item in sorted(value.items(), key=lambda kv: str(kv[0])))
        if value is None or isinstance(value, (bool, int, float, complex, str, np.generic)):
            digest.update(f"{type(value).__name__}:{value!r};".encode())
            return True
        return False

    return digest.hexdigest() if add(args) and add(kwargs) else None


def compiled(root: Instance, group: list[Edit]) -> Callable | None:
    """The reference with `group`'s edits, compiled once per process (MAX_KEPT per function);
    None when the edits do not compose."""
    key = tuple(e.name for e in group)
    function = root.rewritten.get(key)
    if function is None:
        try:
            function = compile_with(root, group)
        except (SyntaxError, ValueError, TypeError, AttributeError, IndexError):
            return None
        if len(root.rewritten) < MAX_KEPT:
            root.rewritten[key] = function
    return function


def run(root: Instance, group: list[Edit], call, copies: bool) -> tuple[bool, object] | None:
    """(True, the value) of the reference with `group`'s edits on `call`'s inputs, or (False,
    the exception it raised); None when the edits do not compose. `copies`: fresh copies of the
    inputs for each run (the reference writes into an array somewhere). Kept values are shared:
    the search only compares them."""
    key = (tuple(e.name for e in group), call.key) if call.key is not None else None
    if key is not None and key in root.values:
        return root.values[key]
    function = compiled(root, group)
    if function is None:
        return None
    try:
        ran = True, (function(*fresh(call.args), **fresh(call.kwargs)) if copies
                     else function(*call.args, **call.kwargs))
    except Exception as error:  # noqa: BLE001 - a rewrite may raise anything: it is data here
        ran = False, error.with_traceback(None)  # its frames not kept alive
    size = elements(ran[1]) if ran[0] else 1
    if key is not None and size <= MAX_VALUE_ELEMENTS \
            and kept["elements"] + size <= KEPT_ELEMENTS and kept["values"] < KEPT_VALUES:
        kept["elements"] += size
        kept["values"] += 1
        root.values[key] = ran
    return ran
