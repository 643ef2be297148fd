"""A small constant's value said only as far as the calls tell it (blind round 57's b57_09).

An operator that changes a small constant (LayerNorm's eps among `operators.EPSILONS`, an eps
parameter fixed at a library's default, `names.parameter_default`) names the one value it tried
that reproduces the student's outputs: "eps is 1e-12". But the calls may not tell that value
from others: b57_09's `eps=1e-10` gave the outputs eps 1e-12 and 0 give, and the hint stated
1e-12, a value its code does not have. So, once a search has settled on such an edit (a detail
`<name>=<value>` or `<name>-as-<value>`, the value a float in [0, 1e-2]), the same edit is tried
with each of PROBES in its place (0 and every power of ten up to 1e-2): where only the value
found reproduces the calls, it is said as found; where others do too, the run of them around it
is said instead, "a value below about 1e-09 (...)" or "a value between about 1e-09 and 1e-07
(...)", with what was tried, and named so (`eps=below-1e-09`, `eps=1e-09-to-1e-07`: `ranged`
rebuilds it from the name, its rewrite the largest value of the run). The report says the
student's own literal there where their code writes one inside the range
(report/constants.py). The search's other constants (a scale written `d_h`, a fill of -1e9)
are said by what they do, not by a value, and need nothing here.
"""
from __future__ import annotations

import ast
import re
from dataclasses import replace

from .tree import Edit

NUMBER = r"(?:0|\d(?:\.\d+)?e-\d+|0\.\d+)"  # as `f"{value:g}"` writes a small float
VALUED = re.compile(rf"^(?P<stem>[A-Za-z_]\w*)(?P<sep>=|-as-)(?P<value>{NUMBER})$")
RANGED = re.compile(rf"^(?P<stem>[A-Za-z_]\w*)(?P<sep>=|-as-)(?:below-(?P<below>{NUMBER})"
                    rf"|(?P<low>{NUMBER})-to-(?P<high>{NUMBER}))$")
PROBES = (0.0, *(float(f"1e-{k}") for k in range(16, 1, -1)))  # 0, 1e-16, ..., 0.01: ascending
LARGEST = 1e-2  # a constant above this is no epsilon: said as found


def valued(edit: Edit) -> tuple[str, str, float] | None:
    """(stem, separator, value) of an edit that sets a small constant, else None."""
    match = VALUED.match(edit.detail)
    if match is None:
        return None
    value = float(match["value"])
    if not 0.0 <= value <= LARGEST or _at(edit.sentence, value) is None:
        return None
    return match["stem"], match["sep"], value


def _at(sentence: str, value: float) -> re.Match | None:
    """Where the sentence states the value: its first occurrence as a word of its own."""
    return re.search(rf"(?<=\s){re.escape(f'{value:g}')}(?=[;,.:)\s])", sentence)


def probe(edit: Edit, old: float, new: float, detail: str | None = None,
          sentence: str | None = None) -> Edit:
    """`edit` with `new` in place of the constant `old` it writes (only in the code the edit
    makes: a constant of the reference's own code is left alone)."""
    def replaced(node: ast.AST, make=edit.replace) -> ast.AST:
        before = {id(n) for n in ast.walk(node)}
        made = make(node)
        swapped = [sub for sub in ast.walk(made) if isinstance(sub, ast.Constant)
                   and id(sub) not in before and type(sub.value) is float and sub.value == old]
        if not swapped:  # no float constant of its own (an int setting): no such edit
            raise ValueError(f"{edit.detail} writes no float {old!r}")
        for sub in swapped:
            sub.value = new
        return made

    return replace(edit, detail=detail or f"{edit.detail}~{new:g}", replace=replaced,
                   sentence=sentence or edit.sentence)


def _words(low: float | None, high: float, run: list[float]) -> str:
    tried = (f"0 and every power of ten up to {run[-1]:g} give" if run[0] == 0.0
             else f"every power of ten from {run[0]:g} up to {run[-1]:g} gives")
    if low is None:
        return (f"a value below about {high:g} ({tried} these outputs, {high:g} does not: "
                "they cannot tell which)")
    return (f"a value between about {low:g} and {high:g} ({tried} these outputs, {low:g} and "
            f"{high:g} do not: they cannot tell which)")


def said(edit: Edit, low: float | None, high: float, run: list[float]) -> Edit:
    """The edit named and told as the run of values `run` (ascending, one power of ten apart,
    every one reproducing the calls), bounded by `low` (None: from 0) and `high`; its rewrite
    writes the run's largest value."""
    stem, sep, value = valued(edit)
    detail = (f"{stem}{sep}below-{high:g}" if low is None
              else f"{stem}{sep}{low:g}-to-{high:g}")
    at = _at(edit.sentence, value)
    rest = edit.sentence[at.end():]  # a bracket on the one value ("(a library's default)"):
    rest = re.sub(r"^ \([^()]*\)", "", rest)  # not of a range
    sentence = edit.sentence[:at.start()] + _words(low, high, run) + rest
    return probe(edit, value, run[-1], detail, sentence)


def settled(edit: Edit, reproduces) -> Edit | None | bool:
    """What to name for the found `edit` that sets a small constant: None to say it as found
    (no other value of PROBES reproduces the calls), the run around it (`said`), or False when
    the calls tell nothing of it (every value up to LARGEST reproduces them). `reproduces(edit)`:
    whether the rewrite gives the student's outputs on every call."""
    found = valued(edit)
    if found is None:
        return None
    value = found[2]
    good = {p: p == value or reproduces(probe(edit, value, p)) for p in PROBES}
    if not any(ok for p, ok in good.items() if p != value):
        return None
    values = sorted({*PROBES, value})
    at = values.index(value)
    low_at, high_at = at, at
    while low_at > 0 and good.get(values[low_at - 1], False):
        low_at -= 1
    while high_at + 1 < len(values) and good.get(values[high_at + 1], False):
        high_at += 1
    if low_at == high_at:  # the value found alone of its neighbours, others far off
        return False        # reproduce too (two separate runs): nothing certain to say
    if high_at + 1 == len(values):
        return False
    run = [v for v in values[low_at:high_at + 1] if v in good]
    low = None if low_at == 0 else values[low_at - 1]
    return said(edit, low, values[high_at + 1], run)


def same_eps(a: Edit, b: Edit) -> bool:
    """Whether `a` and `b` set one epsilon to one value, one at a single call of a helper
    (call_eps.py, `layer_norm_eps=1e-05`) and the other for the whole function (`eps=1e-05`,
    operators.constant): where the function's other calls' eps does not show, the calls cannot
    tell them apart, and the function's, found first, is said (what was said before one call's
    could be)."""
    if {a.operator, b.operator} != {"call_eps", "constant"}:
        return False
    call, whole = (a, b) if a.operator == "call_eps" else (b, a)
    at_call, at_whole = valued(call), valued(whole)
    return (at_call is not None and at_whole is not None and at_call[2] == at_whole[2]
            and at_call[0].endswith(f"_{at_whole[0]}"))


def ranged(by_name: dict[str, Edit], name: str) -> Edit | None:
    """The edit a name `said` made (`...:eps=below-1e-09`), rebuilt from an edit of its site
    that sets the same constant; None for another name."""
    head, _, detail = name.rpartition(":")
    match = RANGED.match(detail)
    if match is None:
        return None
    base = next((e for n, e in by_name.items() if n.rpartition(":")[0] == head
                 and (v := VALUED.match(e.detail)) and v["stem"] == match["stem"]
                 and v["sep"] == match["sep"] and valued(e)), None)
    if base is None:
        return None
    high = float(match["below"] or match["high"])
    low = None if match["below"] else float(match["low"])
    run = [p for p in PROBES if (low is None or p > low) and p < high]
    if not run:
        return None
    return said(base, low, high, run)
