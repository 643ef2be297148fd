"""A causal mask's diagonal offset said in the student's own call, where the submission has one.

The error model's `operators.diagonal` names a triangle one diagonal off in the model solution's
code (`np.tri(T, dtype=bool)`), without its k: a student's mask is their own call, often another
triangle with another k (blind round 55, b55_13: `np.triu(np.ones((T, T)), k=0) * -1e10` read
"k=-1 instead of k=0" against its own `k=0`, where the fix is k=1). So, before spelled.py, a
diagonal sentence whose function (or, failing that, whole submission) holds exactly one
`tri`/`tril`/`triu` call with a literal offset (`k=`, torch's `diagonal=`, positional, or the
default 0) quotes that call and says the offset to write in it. The direction is the sentence's:
"one earlier" (each query sees one key less) means the call's offset is one below the right one,
for a `tri`/`tril` that keeps the keys a query sees and for a `triu` that hides the rest alike.
The right offset must then be the usual one (0 for `tri`/`tril`, 1 for `triu`): a call that
would need another (a transposed score matrix, a mask built off a square) keeps the sentence as
the error model wrote it, which gives no k. Nothing here runs student code.
"""
from __future__ import annotations

import ast
import re
import textwrap

from .quotes import Source

SENTENCE = re.compile(
    r"(?:In `(?P<function>[^\W\d]\w*)`(?: \(at the model solution's step `[^`]+`\))?, )?"
    r"`[^`]+` is one diagonal off: (?P<rest>(?:the keys of each query end|the hidden keys of "
    r"each query start) one (?P<way>earlier|later)[^.]*)\.")
TRIANGLES = {"tri": (2, 0), "tril": (1, 0), "triu": (1, 1)}  # name -> (k's position, right k)
SHOWN = 70  # characters of the student's call quoted at most


def respelled(hint: str | None, source: Source | None) -> str | None:
    """`hint` with each diagonal sentence given in the student's triangle call (the module's
    docstring); as it is without a source or such a call."""
    if not hint or source is None or "one diagonal off" not in hint:
        return hint
    return SENTENCE.sub(lambda m: _sentence(m, source), hint)


def _sentence(match: re.Match, source: Source) -> str:
    function = match.group("function")
    texts = [source.function_text(function)] if function else []
    found = next((calls for calls in (_triangles(t) for t in [*texts, "\n".join(source.chunks)]
                                      if t) if calls), [])
    if len(found) != 1:
        return match.group()
    quote, name, offset, written, right = found[0]
    wrong = right - 1 if match.group("way") == "earlier" else right + 1
    if offset != wrong:
        return match.group()
    head = f"In `{function}`, your" if function else "Your"
    now = f"not {name}={offset}" if written else f"left out, it is {offset}"
    return (f"{head} `{quote}` is one diagonal off: {match.group('rest')}. Write {name}={right} "
            f"there ({now}).")


def _triangles(text: str) -> list[tuple[str, str, int, bool, int]]:
    """(the call as written, its offset's name, the offset, whether written, the usual one) of
    each triangle call in `text` with a literal offset, once per spelling."""
    text = textwrap.dedent(text)
    try:
        tree = ast.parse(text)
    except Exception:  # noqa: BLE001 - hostile text: SyntaxError, ValueError, RecursionError
        return []
    found: dict[str, tuple] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        if name not in TRIANGLES:
            continue
        position, right = TRIANGLES[name]
        keyword = next((k for k in node.keywords if k.arg in ("k", "diagonal")), None)
        given = keyword.value if keyword else (
            node.args[position] if len(node.args) > position else None)
        try:
            offset = 0 if given is None else ast.literal_eval(given)
        except ValueError:
            return []  # an offset computed: not said in numbers
        if type(offset) is not int:
            return []
        segment = " ".join((ast.get_source_segment(text, node) or "").split())
        if not segment or len(segment) > SHOWN:
            return []
        said = keyword.arg if keyword else ("diagonal" if segment.startswith("torch.") else "k")
        found[segment] = (segment, said, offset, given is not None, right)
    return list(found.values())
