"""A fix quoted that the student's function already holds: said by its meaning, or not at all.

An error-model sentence gives the right code as the model solution spells it: "the scores are
divided by sqrt(d), the model width, instead of sqrt(d_h) = `math.sqrt(q.shape[-1])`". Where
the student's function holds that same expression (`np.sqrt(q.shape[-1])` on a q taken before
the head split, blind round 72's b72_07), the quote points them at a line they already wrote,
which is wrong for them because it reads other values. So, after quotes.attributed (session.py
through spelled.finished), each quote given as the right code (quotes.given_as_fix) that the
function the sentence places it in holds goes: with a meaning set before it ("sqrt(d_h) =
`...`"), the meaning alone is said; given as code alone where its clause ends with it
(", instead of `...`.", "where `...` belongs"), the clause goes; otherwise the sentence stays
as it is. "The same expression" is Source.holds, with math's and numpy's functions of one name
read alike (`math.sqrt`, `np.sqrt`, `numpy.sqrt`: one value on a number). Nothing here runs
student code.
"""
from __future__ import annotations

import re

from .quotes import Source, given_as_fix, is_fragment, placed_in

_SPAN = re.compile(r"`([^`\n]+)`")
MODULES = ("math", "np", "numpy")  # a scalar function of one name in each is one value
_MODULE_CALL = re.compile(r"\b(?:math|numpy|np)\.(?=[^\W\d]\w*\s*\()")
_MEANING = re.compile(r" = $")  # "sqrt(d_h) = `...`": the meaning before the code
_CONTRAST = re.compile(r",?\s+(?:instead of|in place of|rather than)\s+$")
_WHERE = re.compile(r"\s+where\s+$")
_CLAUSE_END = re.compile(r"\s*(?:[.,;:)]|$)")


def holds_alike(source: Source, quote: str, function: str) -> bool:
    """Whether `function`'s code holds `quote`, its math or numpy functions spelled with any
    of MODULES."""
    if source.holds(quote, function):
        return True
    return bool(_MODULE_CALL.search(quote)) and any(
        source.holds(_MODULE_CALL.sub(module + ".", quote), function) for module in MODULES)


def unheld_fixes(hint: str, source: Source | None) -> str:
    """`hint` without the quotes of fixes the student's function already holds (the module's
    docstring: the meaning set before one said alone, or the clause that gives it as code
    alone dropped); as it is without a source."""
    if source is None or not hint or "`" not in hint:
        return hint
    out, at = [], 0
    for match in _SPAN.finditer(hint):
        function = placed_in(hint, match.start())
        if (function is None or not is_fragment(match.group(1))
                or not given_as_fix(hint, match.start(), match.end())
                or not holds_alike(source, match.group(1), function)):
            continue
        before, after = hint[at:match.start()], hint[match.end():]
        if (meaning := _MEANING.search(before)) is not None:
            out.append(before[:meaning.start()])
        elif (contrast := _CONTRAST.search(before)) and _CLAUSE_END.match(after):
            out.append(before[:contrast.start()])
        elif (where := _WHERE.search(before)) and after.startswith(" belongs"):
            out.append(before[:where.start()])
            at = match.end() + len(" belongs")
            continue
        else:
            continue
        at = match.end()
    out.append(hint[at:])
    return "".join(out)
