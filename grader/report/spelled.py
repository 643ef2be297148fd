"""A hint's code quotes spelled as the student wrote them, where that is clearly the same code.

The error model's sentences quote the reference's code in the reference's names: its parameters
and the locals it binds from them (`T = as_int("num_tokens", num_tokens)`), and each keyword it
passes. A student's code names them its own way (`num_tokens ^ 2` where the sentence says
`T ^ 2`) and leaves out keywords that change nothing where they are left out (`np.max(x)` for a
whole-array `np.max(x, keepdims=True)`); blind round 54 (b54_02, b54_04) found such near-quotes.
So, before `quotes.attributed`, for each part of a hint placed in a student function ("In
`f`, ..."):

- the reference's names are renamed to the student's (its parameters by position, from the
  def in the submission's source; a local the reference binds from one parameter alone as that
  parameter), in every quote of that part (a keyword's name and what strings hold never), but
  only where that turns a quote the source does not hold into one `f`'s code holds: the
  renaming is then the student's spelling, and the part says it throughout ("Write
  `num_tokens ** 2`"); a quote said as the lecture's keeps the lecture's names;
- a quote of a whole-array reduction with `keepdims=True` and no axis, which the source does not
  hold, is said without the keyword where `f`'s code holds that (the same value wherever it is
  broadcast).

Anything else is left to `quotes.attributed` (said as the lecture's, or as it is). Nothing
here runs student code; a source or a reference that cannot be read leaves the hint as it is.
"""
from __future__ import annotations

import ast
import functools
import inspect
import re
import textwrap
from dataclasses import replace

from .offsets import respelled
from .quotes import Source, attributed, is_fragment
from .steps import placed

_SPAN = re.compile(r"`([^`\n]+)`")
_PLACED = re.compile(r"In `([^\W\d]\w*)`")
# "the model solution's `...`", "the lecture's step `...`": a quote already said as not theirs
_LECTURES = re.compile(r"(?:lecture|model solution)'s(?: [a-z]+)? $")
_KEEPDIMS = re.compile(r",\s*keepdims\s*=\s*True\b")


def finished(result, source: Source | None, folder: str | None = None):
    """An ExerciseResult with each check's hint given a diagonal's offset in the student's call
    (offsets.py), `spelled`, `quotes.attributed`, then its model solution's steps said in the
    student's terms (steps.py) (session.py, before any report is written)."""
    if source is None:
        return result
    passes = (  # in this order, each given the hint the one before it gave
        lambda hint: respelled(hint, source),  # a diagonal's offset in the student's call
        lambda hint: spelled(hint, source, folder),  # quotes as the student's function spells
        lambda hint: attributed(hint, source, folder),  # the others as the model solution's
        lambda hint: placed(hint, source),  # the model solution's steps in the student's terms
    )

    def through(hint: str) -> str:
        for step in passes:
            hint = step(hint)
        return hint
    checks = tuple(replace(c, hint=through(c.hint)) if c.hint else c for c in result.checks)
    return replace(result, checks=checks)


def spelled(hint: str, source: Source | None, folder: str | None = None) -> str:
    """`hint` with the quotes of each part placed in a student function spelled as its code
    spells them (the module's docstring); as it is without a source."""
    if source is None or not hint or "`" not in hint:
        return hint
    starts = [m for m in _PLACED.finditer(hint)]
    if not starts:
        return hint
    out = [hint[:starts[0].start()]]
    for number, match in enumerate(starts):
        end = starts[number + 1].start() if number + 1 < len(starts) else len(hint)
        out.append(_part(hint[match.start():end], match.group(1), source, folder))
    return "".join(out)


def _part(text: str, function: str, source: Source, folder: str | None) -> str:
    names = _renamed(function, source, folder)
    head = len(_PLACED.match(text).group())  # "In `f`": the function's own name, kept
    spans = [m for m in _SPAN.finditer(text, head)
             if not _LECTURES.search(text[:m.start()])]  # one said as the lecture's: its names
    if names and any(is_fragment(q) and not source.holds(q, function)
                     and source.holds(_rename(q, names), function)
                     for q in (m.group(1) for m in spans)):
        kept = {m.start() for m in spans}
        text = _SPAN.sub(lambda m: f"`{_rename(m.group(1), names)}`" if m.start() in kept
                         else m.group(), text)
    return _SPAN.sub(lambda m: f"`{_without_keepdims(m.group(1), function, source)}`", text)


def _without_keepdims(quote: str, function: str, source: Source) -> str:
    """`quote` without `keepdims=True` where it reduces the whole array (no axis) and `function`'s
    code holds it so, not as it is."""
    if "keepdims" not in quote or "axis" in quote or source.holds(quote, function):
        return quote
    bare = _KEEPDIMS.sub("", quote)
    return bare if bare != quote and source.holds(bare, function) else quote


def _rename(quote: str, names: dict[str, str]) -> str:
    """`quote` with each name of `names` renamed: not an attribute, a keyword's name, or in a
    string."""
    def one(match: re.Match) -> str:
        before, after = quote[:match.start()], quote[match.end():]
        if (before.count("'") % 2 or before.count('"') % 2 or before.endswith(".")
                or re.match(r"\s*=(?!=)", after)):
            return match.group()
        return names.get(match.group(), match.group())
    return re.sub(r"(?<![\w.])[^\W\d]\w*", one, quote)


def _renamed(function: str, source: Source, folder: str | None) -> dict[str, str]:
    """{the reference's name: the student's} for `function`'s parameters (by position) and the
    locals the reference binds from one of them alone; only those that differ."""
    theirs = _params(source.function_text(function))
    mine = _reference_names(function, folder)
    if theirs is None or mine is None or len(theirs) != len(mine[0]):
        return {}
    names = {m: t for m, t in zip(mine[0], theirs, strict=True)}
    names.update({local: names[param] for local, param in mine[1].items() if param in names})
    names = {m: t for m, t in names.items() if m != t}
    return names if len(set(names.values())) == len(names) else {}


def _params(text: str | None) -> tuple[str, ...] | None:
    try:
        tree = ast.parse(textwrap.dedent(text or ""))
    except Exception:  # noqa: BLE001 - a def that does not parse on its own
        return None
    defs = [n for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    if not defs:
        return None
    args = defs[0].args
    return tuple(a.arg for a in (*args.posonlyargs, *args.args))


@functools.cache
def _reference_names(function: str, folder: str | None) -> tuple | None:
    """(the reference's parameters, {a local bound from one of them alone: that parameter}):
    `T = as_int("num_tokens", num_tokens)`, `T = num_tokens`; None without a reference."""
    from grader.checks.course import reference_function

    try:
        found = reference_function(function, folder)
        tree = ast.parse(textwrap.dedent(inspect.getsource(found)))
    except Exception:  # noqa: BLE001 - no reference (the student bundle), or no source
        return None
    node = tree.body[0]
    if not isinstance(node, ast.FunctionDef):
        return None
    params = tuple(a.arg for a in (*node.args.posonlyargs, *node.args.args))
    locals_: dict[str, str] = {}
    for statement in node.body:
        if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1
                and isinstance(statement.targets[0], ast.Name)):
            continue
        used = {n.id for n in ast.walk(statement.value) if isinstance(n, ast.Name)} & set(params)
        value = statement.value
        alone = isinstance(value, ast.Name) or (isinstance(value, ast.Call) and all(
            isinstance(a, ast.Constant | ast.Name) for a in value.args) and not value.keywords)
        if len(used) == 1 and alone and statement.targets[0].id not in params:
            locals_[statement.targets[0].id] = used.pop()
    return params, locals_
