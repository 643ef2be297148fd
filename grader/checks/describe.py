"""Short, student-readable descriptions of values: shapes first, then a few numbers.

Everything here works on plain data decoded from the worker (numbers, strings, lists,
tuples, dicts, plain ndarrays, ForeignObject); it never calls a submission's method.
"""
from __future__ import annotations

import re

import numpy as np

WHILE = "while checking this property, "  # a property's student call failed before it was judged
SMALL_ARRAY = 16   # arrays up to this many elements are shown whole (feedback and the sheet)
TITLE_CHARS = 48  # a title made from a hint longer than this is cut at a word boundary
# an `assert` where an exception is asked for: the worker names the exception's type, so the
# mistake is seen (other_error)
REFUSED_WITH_ASSERT = "refused_with_assert"
# the student's own `raise TypeError(...)` where ValueError is asked for: the worker's traceback
# ends on that statement, so the mistake is seen too (other_error)
REFUSED_WITH_OTHER_TYPE = "refused_with_other_type"
_CLAUSE_END = re.compile(r"[.:;!?](?:\s|$)|\s[-\u2013\u2014]\s|\(")


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


def short(value, limit: int = 90) -> str:
    """A compact one-line form of a value, for argument lists: longer than `limit` characters,
    an array by its shape and a dict by its keys (never whole weight dictionaries)."""
    if isinstance(value, np.ndarray):
        small = value.size <= SMALL_ARRAY and value.ndim <= 2
        text = np.array2string(value, precision=4, separator=", ") if small else ""
        return text.replace("\n", "") if small and len(text) <= limit else (
            f"<array {'x'.join(map(str, value.shape))} {value.dtype}>")
    if isinstance(value, np.generic):
        return repr(value.item())
    if isinstance(value, tuple):
        text = "(" + ", ".join(short(v) for v in value) + ("," if len(value) == 1 else "") + ")"
    elif isinstance(value, list):
        more = ", ..." if len(value) > 8 else ""
        text = "[" + ", ".join(short(v) for v in value[:8]) + more + "]"
    elif isinstance(value, dict):
        more = ", ..." if len(value) > 6 else ""
        text = "{" + ", ".join(f"{k}: {short(v)}" for k, v in list(value.items())[:6]) + more + "}"
        if len(text) > limit:
            return "<dict: " + ", ".join(map(str, value)) + ">"
    else:
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def call_label(name: str, params: list[str], args, kwargs, shown=None) -> str:
    """`patchify(image=<array 4x4 float64>, P=2)`: what was called, with which shapes;
    `shown`: how an argument is written (default `short`)."""
    shown = shown or short
    names = list(params) + [""] * len(args)
    parts = [f"{p}={shown(a)}" if p else shown(a) for p, a in zip(names, args, strict=False)]
    parts += [f"{k}={shown(v)}" for k, v in kwargs.items()]
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


def other_error(outcome, expected: str) -> tuple[str | None, str | None]:
    """(hint, name) when the code refused the input, but with another exception than the one
    asked for. An `assert` (AssertionError, and no check at all under `python -O`) is a named
    mistake, REFUSED_WITH_ASSERT: the exception's type is what the student's code did, so the
    claim is seen, not guessed. So is the student's own check raising another type (the
    traceback the worker sent ends on `raise TypeError(...)`, torchvision's convention for a
    wrong number of axes), REFUSED_WITH_OTHER_TYPE. An error a later step ran into (IndexError)
    instead of the check itself is observed (name None). (None, None) for a function not
    written yet."""
    if outcome.status != "raised" or outcome.error.type == "NotImplementedError":
        return None, None
    kind = outcome.error.type
    own = _raised_by_own_statement(getattr(outcome.error, "traceback", None) or "", kind)
    if kind == "AssertionError" and not own:  # `raise AssertionError(...)` is no `assert`
        return (f"Your code refused the input with `assert` (AssertionError), where {expected} "
                f"is asked for: an assert is no input check (python -O skips it); write "
                f"`raise {expected}(...)`."), REFUSED_WITH_ASSERT
    if own:
        return (f"Your input check refused the input with `raise {kind}(...)` (the last line "
                f"your code ran), where {expected} is asked for: keep the check, change its "
                f"exception: `raise {expected}(...)`."), REFUSED_WITH_OTHER_TYPE
    return (f"Your code raised {outcome.error.type} where {expected} is asked for: check the "
            f"input yourself first and raise {expected} with a message."), None


def _raised_by_own_statement(traceback: str, kind: str) -> bool:
    """Whether the student's traceback ends on their own `raise KIND(...)` / `raise KIND`
    statement (not on a line where numpy or a later step raised it)."""
    lines = [line.strip() for line in traceback.splitlines() if line.strip()]
    if not lines or not kind.isidentifier():
        return False
    return re.match(rf"raise\s+{kind}\b", lines[-1]) is not None


def outcome_lines(outcome) -> list[str]:
    """What the student's call did, as `got:` lines (the call is named above them)."""
    if outcome.status == "raised":
        error = outcome.error
        lines = [f"got:      {error.type}" + (f": {error.message}" if error.message else "")]
        if outcome.error.traceback:
            lines += ["your code:"] + ["  " + line
                                       for line in outcome.error.traceback.rstrip().splitlines()]
        return lines
    return [f"got:      {outcome.message or outcome.status}"]


def limit_note(outcome) -> str:
    """' (the grader limits the memory of your code to 4096 MB)' when a worker limit made the
    call raise."""
    limit = getattr(outcome.error, "limit", None)
    return f" ({limit})" if limit else ""


def short_title(hint: str) -> str:
    """The hint's first clause, at most TITLE_CHARS characters, cut at a word boundary:
    "You counted overlapping stride-1 windows, as a CNN ..." -> "You counted overlapping
    stride-1 windows, as a CNN slides its kernel"."""
    text = " ".join(str(hint).replace("`", "").split())
    end = _CLAUSE_END.search(text)
    clause = (text[:end.start()] if end and end.start() > 0 else text).strip(" ,")
    if len(clause) <= TITLE_CHARS:
        return clause
    cut = clause[:TITLE_CHARS + 1].rsplit(" ", 1)[0].rstrip(" ,")
    return (cut or clause[:TITLE_CHARS]) + "\u2026"


def sheet_value(value) -> str:
    """A value as the question sheet writes it: small arrays whole, others by their shape."""
    if isinstance(value, np.ndarray):
        if value.size <= SMALL_ARRAY:
            text = np.array2string(value, precision=4, separator=", ", suppress_small=True)
            return "array(" + " ".join(text.split()) + ")"
        return f"<array of shape {value.shape}>"
    if isinstance(value, np.generic):
        return repr(value.item())
    return repr(value)


def failed_in(message: str) -> str | None:
    """The function a property's message says failed while it was checked (kinds/property.py
    writes it after WHILE), else None."""
    found = re.match(rf"{WHILE}(\w+)\(", message or "")
    return found[1] if found else None
