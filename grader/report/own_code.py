"""A regraded failure said to be in a function's own code only where that is all it can be.

dependencies.py grades a failed check again around correct stand-ins for the student's broken
student-API helpers, and says "so this failure is in `encoder_block`'s own code". The student
API's other functions have checks of their own (right there, or stood in), but a helper of the
submission's own that no exercise checks alone (a `gelu` the block calls, a `_split` of its
own) may hold the mistake as well: blind round 68's b68_02, whose `gelu` has 0.44715 for 0.044715,
was sent to search a right `encoder_block`. So, with the source, the sentence names each such
helper the function calls (directly or through another: quotes.Source.called) whose code is
not the course's own as given (a template's `gelu`, its syntax alike): "in `encoder_block`'s own
code or in `gelu`, which it calls". Nothing here runs student code.
"""
from __future__ import annotations

import ast
import functools
import re
import textwrap
from dataclasses import replace
from pathlib import Path

from grader.checks.describe import quoted_names
from grader.checks.regrade_notes import OWN_CODE

from .quotes import Source, functions_of

SAID = re.compile(r"this failure is in `(?P<function>[^\W\d]\w*)`" + re.escape(OWN_CODE))
COURSE_FOLDERS = ("student_template", "solutions")  # the code the course gives (boilerplate.py)
MOST_BYTES = 1 << 20  # a course file read at most


def owned(check, source: Source | None, folder: str | None = None):
    """`check` (a CheckResult) with its regrade note naming the submission's own helpers the
    function calls beside its own code (the module's docstring); as it is without a source."""
    if source is None or OWN_CODE not in (check.message or ""):
        return check
    message = SAID.sub(lambda m: m.group() + _helpers(m.group("function"), source, folder),
                       check.message)
    return check if message == check.message else replace(check, message=message)


def _helpers(function: str, source: Source, folder: str | None) -> str:
    """" or in `gelu`, which it calls" for the helpers of the student's own `function` calls
    that no check grades alone and the course did not give as they are; "" when none."""
    names = [name for name in source.called(function) if name != function
             and not _as_given(name, source.function_text(name), folder)]
    if not names:
        return ""
    return f" or in {quoted_names(names).replace(' and ', ' or ')}, which it calls"


def _as_given(name: str, text: str | None, folder: str | None) -> bool:
    """Whether the student's `name` is, token for token, the course's own code of that name."""
    given = _course_functions(folder).get(name)
    return (given is not None and text is not None
            and _shape(given) is not None and _shape(given) == _shape(text))


def _shape(text: str) -> str | None:
    """The function's syntax tree without its docstring (comments and layout aside)."""
    try:
        tree = ast.parse(textwrap.dedent(text))
    except Exception:  # noqa: BLE001 - hostile text: SyntaxError, ValueError, RecursionError
        return None
    function = tree.body[0] if tree.body else None
    body = getattr(function, "body", None)
    if body and isinstance(body[0], ast.Expr) and isinstance(getattr(body[0], "value", None),
                                                            ast.Constant):
        function.body = body[1:]
    return ast.dump(tree, annotate_fields=False, include_attributes=False)


@functools.cache
def _course_functions(folder: str | None) -> dict[str, str]:
    """{name: source} of the functions the course's template and solution define, looked for
    beside the exercises folder and beside the grader package (similarity/boilerplate.py's
    places); {} where there are none."""
    roots = [Path(folder).absolute().parent] if folder else []
    roots.append(Path(__file__).resolve().parents[2])
    found: dict[str, str] = {}
    for root in dict.fromkeys(roots):
        for sub in COURSE_FOLDERS:
            for path in sorted((root / sub).glob("*.py")) if (root / sub).is_dir() else ():
                try:
                    if path.is_symlink() or path.stat().st_size > MOST_BYTES:
                        continue
                    text = path.read_text(encoding="utf-8", errors="replace")
                except OSError:
                    continue
                for name, code in functions_of([text]).items():
                    found.setdefault(name, code)
    return found
