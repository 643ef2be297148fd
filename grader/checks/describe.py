"""Short, student-readable descriptions of values: shapes first, then a few numbers.

Everything here works on plain data decoded from the worker (numbers, strings, lists,
tuples, dicts, plain ndarrays, ForeignObject); it never calls a submission's method.
"""
from __future__ import annotations

import numpy as np

SMALL_ARRAY = 16   # arrays up to this many elements are shown whole


def describe(value, limit: int = 120) -> str:
    """`array (4, 16) float64`, `196 (int)`, `(2, 2) (tuple)`, ..."""
    if isinstance(value, np.ndarray):
        head = f"array {tuple(value.shape)} {value.dtype}"
        if value.size and value.size <= SMALL_ARRAY:
            return f"{head} {_clip(np.array2string(value, precision=4, separator=', '), limit)}"
        return head
    if isinstance(value, np.generic):
        return f"{value.item()!r} (numpy {value.dtype})"
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, (int, float)):
        return f"{value!r} ({type(value).__name__})"
    if isinstance(value, (list, tuple)):
        kind = type(value).__name__
        return f"{kind} of {len(value)}: {_clip(short(value), limit)}"
    if isinstance(value, dict):
        return f"dict with keys {_clip(', '.join(map(str, value)), limit)}"
    if type(value).__name__ == "ForeignObject":
        return f"an object of type {value.type_name} ({_clip(value.summary, 60)})"
    return _clip(repr(value), limit)


def short(value) -> str:
    """A compact one-line form of a value, for argument lists."""
    if isinstance(value, np.ndarray):
        if value.size <= SMALL_ARRAY and value.ndim <= 2:
            return np.array2string(value, precision=4, separator=", ").replace("\n", "")
        return f"<array {'x'.join(map(str, value.shape))} {value.dtype}>"
    if isinstance(value, np.generic):
        return repr(value.item())
    if isinstance(value, tuple):
        return "(" + ", ".join(short(v) for v in value) + ("," if len(value) == 1 else "") + ")"
    if isinstance(value, list):
        more = ", ..." if len(value) > 8 else ""
        return "[" + ", ".join(short(v) for v in value[:8]) + more + "]"
    if isinstance(value, dict):
        more = ", ..." if len(value) > 6 else ""
        return "{" + ", ".join(f"{k}: {short(v)}" for k, v in list(value.items())[:6]) + more + "}"
    return repr(value)


def call_label(name: str, params: list[str], args, kwargs) -> str:
    """`patchify(image=<array 4x4 float64>, P=2)`: what was called, with which shapes."""
    names = list(params) + [""] * len(args)
    parts = [f"{p}={short(a)}" if p else short(a) for p, a in zip(names, args, strict=False)]
    parts += [f"{k}={short(v)}" for k, v in kwargs.items()]
    return f"{name}({', '.join(parts)})"


def _clip(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def quoted_names(names) -> str:
    """"`a`", "`a` and `b`", "`a`, `b` and `c`": names in a sentence."""
    quoted = [f"`{n}`" for n in names]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]


def stand_in_note(names) -> str:
    """'passed with the grader's correct `patchify` standing in for yours'."""
    return f"passed with the grader's correct {quoted_names(names)} standing in for yours"
