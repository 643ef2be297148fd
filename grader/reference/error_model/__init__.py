"""The error model: mistakes generated from the reference's own code (issue 38, items 1 and 3).

After a function check failed and no listed misconception matched (checks/kinds/mistakes.py),
`search` parses the reference function's source, and its helpers' (`tree.py`), applies one
operator (`operators.py`) at one place, compiles the rewritten function and runs it on the
check's cases; when none reproduces the student's outputs, pairs: first two whose changes add
up to the student's value (`pairs.summed_pairs`), then pairs of the closest ones. A rewrite
is named only when it reproduces the student's outputs on every case the check ran, passing
ones included, under the check's comparison, and when no other rewrite of another name does too.

Names are stable while the reference's code is: `op:<operator>:<path>:<detail>`, where path is the
checked function then the helpers down to where the edit lies, repeated calls of one helper
numbered from the second (`encoder_block/mlp/linear.2`), and detail what changed (`sum.axis=0`,
`drop-b`, `eps=1e-05`, `act=relu`), numbered from the second when one function makes it twice; a
pair joins two names with "+", in the order of the reference's code, a part that changes nothing
alone marked "~" (`op:diagonal:...+~op:infinity_filled:...`: it reproduces the values with the
other part, and only the other part is told; where another rewrite found makes that part with
a second mistake at the quiet part's place instead, a -10000 fill, the part is still told, as
maybe not all that differs: `_within`). An edit of a helper one function calls several times
is also made at every call at once (a student writes the helper once), its path ending in `*`:
`op:split:self_attention/split_heads*:...`.

Only the instructor's reference runs here, in the grading process, rewritten; never student code.
The student bundle has no reference, hence no error model: only the listed misconceptions."""
from __future__ import annotations

import ast
import functools
import threading
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, replace
from itertools import chain

import numpy as np

from grader.report.fill_notes import QUIET_NOTE, UNSURE_NOTE  # report/minimum_fill.py's too

from .aliases import aliases
from .change import Context, where
from .constants import ranged, settled
from .dtypes import fewest_rounded
from .evidence import agree, distance, elements
from .modules import LATE, NAMED_ELSEWHERE, OPERATORS, PARTNERS, PLAIN_FORMS, UNPAIRED
from .pairs import SIBLING_OPERATORS, anchored, pairs_to_try, summed_pairs
from .plain_forms import plain_readings
from .quiet_parts import note as quiet_note
from .quiet_parts import same_kind, undetermined
from .row_sums import REREADINGS
from .runs import compiled, inputs_key, run
from .scales import formulas_over_reads, read_of_unshown
from .slips import groups, known, needed, told_grouped, told_unplaced, unplaced
from .tree import Edit, Instance, Site, build, compile_with, nodes, span
from .trial import ALIKE, SILENT, Raised, attempt

MAX_REWRITES = 720      # singles tried per failed check (vit_forward whole: 704; graded: <= 250)
MAX_TRIES = 600         # singles and pairs per failed check: what is found, the same on any
# machine (a time budget named a mistake idle, not under load: shards and one run differed)
LATE_TRIES = 24        # modules.LATE's rewrites tried, after every other, where none reproduced
SECONDS = 30.0          # only a safety net, far above what MAX_TRIES takes
MAX_CASE_ELEMENTS = 200_000  # the search runs only on small inputs
JOIN = "+"
QUIET = "~"  # a pair's part that changes nothing alone, named (its values) but not told:
_LOCK = threading.RLock()


def _one_at_a_time(function: Callable) -> Callable:
    """`function` run by one thread at a time: the models and compiled rewrites are shared
    caches, and CPython 3.11's ast module is not safe to use from two threads at once
    ("AST constructor recursion depth mismatch", python/cpython#106905). Only a caller that
    grades in threads (the tests) meets it; grade-all's jobs are processes."""
    @functools.wraps(function)
    def serial(*args, **kwargs):
        with _LOCK:
            return function(*args, **kwargs)
    return serial


@dataclass(frozen=True)
class Found:
    name: str           # op:...[+op:...]
    sentence: str       # what the student reads
    either: bool = False  # one slip the cases could not place: its parts are no finding alone
    chosen: bool = False  # one of several rewrites of other names that reproduced the calls
    unseparated: bool = False  # a size read where a formula of it reproduced the calls too, on
    # calls that show one size (scales.read_of_unshown): other calls may tell the formula


@dataclass(frozen=True)
class Call:
    """One case the check ran: its inputs, the student's value and the expected one."""
    args: tuple
    kwargs: dict
    got: object
    expected: object

    @functools.cached_property
    def key(self) -> str | None:
        """Its inputs' digest: a rewrite's value on equal inputs is computed once (runs.py)."""
        return inputs_key(self.args, self.kwargs)


def edits(root: Instance) -> list[Edit]:
    """Every single rewrite of the tree, the root's first, in OPERATORS' order within each."""
    found = []
    for instance in root.walk():
        context = Context(root.name, instance, root.function)
        per_operator = {name: [] for name in OPERATORS}
        for index, (node, _, _, _) in enumerate(nodes(instance.node)):
            for name, operator in OPERATORS.items():
                per_operator[name] += [
                    Edit(name, Site(instance.path, index), change.detail, change.sentence,
                         change.replace, change.names, holds=change.holds,
                         shared=change.shared, rounding=change.rounding)
                    for change in operator(context, node)]
        found += [edit for group in per_operator.values() for edit in group]
    found += everywhere(root, found)
    unique = {}
    for edit in found:  # a name used twice in one function: numbered from the second
        number, detail = 1, edit.detail
        while edit.name in unique:
            number += 1
            edit = replace(edit, detail=f"{detail}.{number}")
        unique[edit.name] = edit
    return list(unique.values())


def everywhere(root: Instance, found: list[Edit]) -> list[Edit]:
    """Each edit of a helper that one function calls several times, made at every one of those
    calls at once: a student writes the helper once (`split_heads` for q, k and v, `linear`
    for every projection), so its mistake is in each call. Only the reference's own helpers:
    a student-API function called twice (layer_norm) has its own checks, and its callers are
    graded around it. Only the helper's own code, not its helpers'."""
    from grader.reference import REFERENCE  # the student API's own functions

    by_site = {(e.site.path, e.site.index, e.operator, e.detail): e for e in found}
    combined = []
    for parent in root.walk():
        calls: dict[Callable, list[Instance]] = {}
        for child in parent.children.values():
            calls.setdefault(child.function, []).append(child)
        for function, instances in calls.items():
            if len(instances) < 2 or function.__name__ in REFERENCE:
                continue
            first, others = instances[0], instances[1:]
            said = where(Context(root.name, first))
            every = (f"`{root.name}` (in each of the model solution's {len(instances)} calls of `"
                     + first.name + ("`)" if parent is root else f"` in `{parent.name}`)"))
            for edit in (e for e in found if e.site.path == first.path):
                twins = [by_site.get((other.path, edit.site.index, edit.operator, edit.detail))
                         for other in others]
                if None in twins or not edit.sentence.startswith(f"In {said}"):
                    continue
                sentence = edit.shared or edit.sentence  # not one call's own arguments
                combined.append(replace(edit, sentence=sentence.replace(said, every, 1),
                                        also=tuple(twin.site for twin in twins)))
    return combined


@functools.lru_cache(maxsize=64)
def model(function: Callable, opaque: frozenset = frozenset()
          ) -> tuple[Instance, tuple[Edit, ...]] | None:
    """`function`'s instance tree and its single rewrites, built once per process; the helpers
    named in `opaque` are left as they are."""
    root = build(function, opaque=opaque)
    return None if root is None else (root, tuple(edits(root)))


@functools.lru_cache(maxsize=64)
def _writes_in_place(function: Callable, opaque: frozenset = frozenset()) -> bool:
    """Whether some instance of `function`'s model assigns into an array or augments a name
    (`x[i] = ...`, `x += 1`): then every run gets its own copy of the inputs (no operator adds
    such a statement). Once per process, as the model is."""
    root = model(function, opaque)[0]
    return any(isinstance(node, ast.AugAssign)
               or (isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store))
               for instance in root.walk() for node in ast.walk(instance.node))


@_one_at_a_time
def tree_of(function: Callable) -> Instance | None:
    return build(function)


def _named(function: Callable, name: str, opaque: frozenset) -> tuple[Instance, list[Edit]]:
    """`function`'s instance tree and the edits the mistake `name` makes (KeyError: none such)."""
    built = model(function, opaque)
    by_name = {edit.name: edit for edit in built[1]} if built else {}
    wanted = [part.removeprefix(QUIET) for part in name.split(JOIN)]
    group = [by_name.get(part) or ranged(by_name, part) for part in wanted]
    if None in group:
        raise KeyError(name)
    return built[0], group


@_one_at_a_time
def rewrite(function: Callable, name: str, opaque: frozenset = frozenset()) -> Callable:
    """The reference `function` rewritten as the mistake `name` says (KeyError: none such)."""
    return compile_with(*_named(function, name, opaque))


@_one_at_a_time
def rounds(function: Callable, name: str, opaque: frozenset = frozenset()) -> bool:
    """Whether the mistake `name` is a float16 rounding, reproduced as trial.explained says."""
    return any(edit.rounding for edit in _named(function, name, opaque)[1])


@_one_at_a_time
def sentence(function: Callable, name: str, opaque: frozenset = frozenset(),
             either: bool = False, unsure: bool = False) -> str:
    """What a student is told for the mistake `name` of `function` (KeyError: no such name);
    `either`: told as a slip the cases could not place (`_either`); `unsure`: a pair with a quiet
    part told as maybe not all (`_within`)."""
    root, group = _named(function, name, opaque)
    if either:
        return told_unplaced(group)
    quiet = [e for part, e in zip(name.split(JOIN), group, strict=True) if part.startswith(QUIET)]
    if unsure and len(quiet) == 1 and len(group) == 2:
        return _unsure(group, quiet[0]).sentence
    return _told(group, quiet[0] if quiet and len(group) > 1 else None, root).sentence


def _failing_first(calls: list[Call], failing: int) -> list[Call]:
    return [calls[failing]] + [c for i, c in enumerate(calls) if i != failing]


@_one_at_a_time
def confirms(function: Callable, found: Found, calls: list[Call], failing: int,
             same: Callable[[object, object], bool], opaque: frozenset = frozenset()) -> bool:
    """Whether the mistake `found` (named on another check of the same function) reproduces
    every call here too, and is wrong on calls[failing]: one try instead of a search."""
    try:
        root, group = _named(function, found.name, opaque)
    except KeyError:
        return False
    if not calls:
        return False
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        outcome = attempt(root, group, _failing_first(calls, failing), same,
                       _writes_in_place(function, opaque))
    return outcome is True or (outcome == ALIKE and _wrong_value(calls, same))


def _wrong_value(calls: list[Call], same) -> bool:
    """Whether the student returned a wrong value on one of `calls` (not only raised)."""
    return any(not isinstance(c.got, Raised) and not agree(same, c.expected, c.got)
               for c in calls)


@_one_at_a_time
def search(function: Callable, calls: list[Call], failing: int,
           same: Callable[[object, object], bool], limit: int = MAX_REWRITES,
           seconds: float = SECONDS, opaque: frozenset = frozenset(), prefer: frozenset =
           frozenset()) -> Found | None:
    """The one rewrite (or pair) of `function` whose outputs `same` accepts as the student's on
    every call, and which is itself wrong on calls[failing]; None when none is, or when several
    of different names are (but `slips.known`'s, by `prefer`). `opaque`'s helpers stay whole."""
    if not calls or any(elements(c.args) + elements(c.kwargs) > MAX_CASE_ELEMENTS
                        for c in calls):
        return None
    only_raised = not _wrong_value(calls, same)  # then only a raise of the student's very
    # message tells: a rewrite that raises alike, and is right where the student is, says
    # nothing of a value (a ValueError of another step, where the student's is the reference)
    built = model(function, opaque)
    if built is None:
        return None
    root, singles = built
    late = tuple(edit for edit in singles if edit.operator in LATE)[:LATE_TRIES]
    singles = tuple(edit for edit in singles if edit.operator not in NAMED_ELSEWHERE | LATE)
    rank = {edit.name: i for i, edit in enumerate((*singles, *late))}
    deadline = time.monotonic() + seconds
    order = _failing_first(calls, failing)
    copies = _writes_in_place(function, opaque)
    scored, silent, found, alike, returned, unheld = [], [], [], [], [], []
    quiet = {}  # a pair's name -> its part that changes nothing alone (told: the other part)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        tries = 0
        for edit in singles[:limit]:
            if time.monotonic() > deadline:
                break
            tries += 1
            outcome = attempt(root, [edit], order, same, copies)
            if (outcome is True or outcome == ALIKE) and not _holds(root, [edit], order, same):
                unheld.append(edit)
                continue  # its values, but not what its sentence says beyond them
            if outcome is True:
                found.append([edit])
            elif outcome == ALIKE:
                alike.append([edit])
            elif edit.rounding:
                continue  # a narrower float's rewrite joins no pair (its values fit by noise)
            elif outcome == SILENT:
                if edit.detail not in REREADINGS and edit.operator not in UNPAIRED:
                    silent.append(edit)  # they would crowd out another's partners (their modules)
            elif outcome is not None:
                scored.append((outcome, edit))
            else:
                returned.append(edit)
        if not (found or (alike and not only_raised)):  # a raise alike tells nothing where
            # the code only raised: a pair may give its very message (a side and C = 3: MAE's)
            start = distance(order[0].expected, order[0].got)
            raising, nans = anchored(root, scored, order[0], copies)
            singled = len(alike)  # the singles' raises alike, which tell nothing here
            every = (group for _ in (0,) if not (found or alike[singled:])  # slips.py's: no pair
                     for group in groups(scored, silent, root, order, copies, SIBLING_OPERATORS,
                                         [e for e in singles if e.name in prefer], returned))
            spent = tries - sum(e.rounding for e in singles[:tries])  # a narrower float's
            # rewrites (dtypes.steps_in's subsets) take no pair's place: they join none
            summed = (summed_pairs(root, scored, order[0], same, copies) if spent < MAX_TRIES
                      else [])
            for pair in chain([*pairs_to_try(scored, start, silent, raising, singles[:tries],
                                             summed, nans)][:max(0, MAX_TRIES - spent)], every):
                if time.monotonic() > deadline:
                    break
                if any(edit.rounding for edit in pair):
                    continue  # a narrower float's values fit a second part's by its noise
                tries += 1
                outcome = attempt(root, list(pair), order, same, copies)
                if not (outcome is True or outcome == ALIKE) or not needed(
                        pair, lambda g: attempt(root, g, order, same, copies), ALIKE):
                    continue  # slips.needed: a group of 3 or more with a part it does not need
                group = sorted(pair, key=lambda e: rank[e.name])  # in the code's order
                idle = [] if {e.operator for e in group} in PARTNERS else [
                    e for e in group if e in silent and not _shows(root, e, order, same, copies)]
                idle = idle if len(idle) == 1 or not _one_mistake(group) else []  # quiet_parts
                if len(idle) < 2 - (len(group) > 2) and _holds(root, group, order, same):  # no
                    # quiet part is a mistake, not told (a slip made twice needs none shown)
                    (found if outcome is True else alike).append(group)
                    quiet.update({JOIN.join(e.name for e in group): e for e in idle})
        for edit in late if not (found or (alike and not only_raised)) else ():
            outcome = attempt(root, [edit], order, same, copies)  # alone: no pair, no budget
            if outcome in (True, ALIKE) and _holds(root, [edit], order, same):
                (found if outcome is True else alike).append([edit])
    found = found or ([] if only_raised else alike)  # a raise's message too, else its type
    found = plain_readings(found, PLAIN_FORMS)  # one mistake in two forms: the lecture's
    rounded = [group for group in found if len(group) == 1 and group[0].rounding]
    if len(rounded) > 1 and len(rounded) == len(found):  # which steps a narrower float rounds
        found = fewest_rounded(rounded)  # the calls cannot tell: the ones every reading rounds
    found = formulas_over_reads(root, found)  # sqrt(heads) said, not `q.shape[0]`
    names = {_said(group, quiet) for group in found}  # one told several ways is one mistake
    chosen = len(names) > 1 and not aliases(found, root, order)
    decided = False  # by another check's name (`known`, below)
    if len(names) > 1 and (unset := undetermined(found, quiet, JOIN)) is not None:
        return _told(*unset, root)  # a max's axis where the sum's makes it change nothing
    if len(names) > 1 and not chosen:
        found = found[:1]  # one value set two ways that are the same on these inputs
    elif len(names) > 1 and (single := [g for g in found if _one_mistake(g)]) and (
            len(single) == 1 or aliases(single, root, order)):  # one slip made twice, said one way
        found = sorted(single, key=lambda g: len({e.detail.split(".")[-1] for e in g}))[:1]
    elif len(names) > 1 and len(narrow := _narrowest(root, found)) == 1:
        found = narrow  # `Wk` read as `Wq` says less than the whole line's keys as the queries'
    elif len(names) > 1 and (either := _either(root, found, order, same, copies, rank)):
        return either
    elif len(names) > 1 and len(mine := known(found, prefer)) == 1:
        found = mine  # another check of the function named its part: that one (slips.known)
        decided = True
    elif len(names) > 1 and (within := _within(found, quiet)) is not None:
        return within
    elif len(names) != 1:
        return None
    group = found[0]
    for at, part in enumerate([] if decided and len(group) > 1 else group):
        exact = settled(part, lambda e, at=at, now=group: attempt(  # a small constant: said as
            root, [*now[:at], e, *now[at + 1:]], order, same, copies) in (True, ALIKE))  # far
        if exact is False:  # as the calls tell it (constants.py), a pair's other parts kept,
            return None     # unless another check of the function decided it (`known`)
        group = group if exact is None else [*group[:at], exact, *group[at + 1:]]
    told = _told(group, quiet.get(JOIN.join(e.name for e in group)), root)
    return replace(told, chosen=chosen,  # chosen: other cases may tell otherwise
                   unseparated=read_of_unshown(root, group, unheld))


def _holds(root: Instance, group: list[Edit], order: list[Call], same) -> bool:
    """Whether what each part says beyond the values is true of these calls (`Edit.holds`)."""
    return all(edit.holds is None or edit.holds(compiled(root, [edit]), order, same)
               for edit in group)


def _said(group: list[Edit], quiet: dict) -> str:
    """The name of what a found rewrite tells: its parts but the one `quiet` holds for it."""
    idle = quiet.get(JOIN.join(e.name for e in group))
    return JOIN.join(e.name for e in group if e is not idle)


def _shows(root: Instance, edit: Edit, order: list[Call], same, copies: bool) -> bool:
    """Whether `edit` alone changes the reference's value on one of the calls: a second part of
    a pair that changes nothing alone (a mask's finite fill, where the reference never hides a
    whole row) only handles what the first part made, the student's code no mistake there."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        for call in order:
            ran = run(root, [edit], call, copies)
            if ran is None or not ran[0]:  # a raise where the reference returns: a change
                return True
            if not agree(same, ran[1], call.expected):
                return True
    return False


def _narrowest(root: Instance, found: list[list[Edit]]) -> list[list[Edit]]:
    """The single rewrites found whose place holds no other one found: of an edit of a whole
    step and an edit of one of its arguments that both reproduce the outputs, the narrower
    claim (the other changes more than these inputs can show, a bias that softmax cancels)."""
    singles = [group[0] for group in found if len(group) == 1]
    if len(singles) != len(found):
        return []
    spans = {edit.site: span(root, edit.site) for edit in singles}
    return [[edit] for edit in singles if not any(
        other.site != edit.site and other.site.path == edit.site.path
        and other.site.index in spans[edit.site] for other in singles)]


def _either(root: Instance, found: list[list[Edit]], order, same, copies, rank) -> Found | None:
    """One slip of one operator in one function that these inputs cannot place: every rewrite
    found edits the same function the same way, at one of its places or several, and making it
    at all of them reproduces the outputs too, a raise's message included (keepdims written
    `[:, None]` in the mean, the variance or both: a (T, d) input shows nothing, a batched one
    only raises); beside it, mistakes every rewrite found makes (`slips.unplaced`). Told once,
    with the places."""
    split = unplaced(found, rank)
    if split is None:
        return None
    edits = sorted([*split[0], *split[1]], key=lambda e: rank[e.name])
    if attempt(root, edits, order, same, copies) is not True:  # a raise's message too
        return None
    return Found(JOIN.join(e.name for e in edits), told_unplaced(edits), either=True)


def _within(found: list[list[Edit]], quiet: dict) -> Found | None:
    """A pair with a quiet part (a slip and a finite fill that changes nothing alone) whose told
    part every other rewrite found makes too, beside a second mistake at the quiet part's place
    (d2l's valid lengths from zero, filled -1e6: the triangle one diagonal off with a large fill,
    or with a -1e4 fill, which leaks only where the reference's triangle keeps a row's scores far
    below it, and the slip's rows leave none): the slip is in every reading, so it is told, with
    UNSURE_NOTE for QUIET_NOTE (fixing it may not be all); None when not so. `chosen`: the
    function's other checks weigh it (kinds/mistakes.py)."""
    quieted = [g for g in found if JOIN.join(e.name for e in g) in quiet]
    if not quieted or len({_said(g, quiet) for g in quieted}) > 1:
        return None
    group = quieted[0]
    idle = quiet[JOIN.join(e.name for e in group)]
    told = [e for e in group if e is not idle]
    others = [g for g in found if g not in quieted]
    if len(told) != 1 or not all(  # the slip, and only a value at the fill's place beside it
            told[0] in g and all(e.site == idle.site for e in g if e is not told[0])
            for g in others):
        return None
    return replace(_unsure(group, idle), chosen=True)


def _unsure(group: list[Edit], idle: Edit) -> Found:
    """A pair with a quiet part, told by its other part with UNSURE_NOTE (`_within`)."""
    shown = next(e for e in group if e is not idle)
    return Found(JOIN.join(QUIET * (e is idle) + e.name for e in group),
                 shown.sentence + UNSURE_NOTE)


def _one_mistake(group: list[Edit]) -> bool:
    """Whether a pair is one slip made at two places of one function: one operator, one path."""
    return len(group) > 1 and len({(e.operator, e.site.path) for e in group}) == 1


def _told(group: list[Edit], quiet: Edit | None = None, root: Instance | None = None) -> Found:
    """The found rewrite's name and sentence; a pair of one operator in one function is told
    as one slip made at two places (the axis of both mean and var); a pair with a `quiet` part
    by its other part, and QUIET_NOTE (a finite fill where the triangle hides a whole row), or
    quiet_parts.note where the quiet part is of the told one's kind."""
    if len(group) == 1 or quiet is not None:
        shown = next(e for e in group if e is not quiet)
        kind = quiet is not None and same_kind(shown, quiet)  # told first: a name is "op:..."
        said = "" if quiet is None else quiet_note(root, quiet) if kind else QUIET_NOTE
        named = [shown, quiet] if kind else group
        return Found(JOIN.join(QUIET * (e is quiet) + e.name for e in named),
                     shown.sentence + said)
    return Found(JOIN.join(e.name for e in group),  # slips.py: one slip, or how many
                 told_grouped(group, _one_mistake(group)))


__all__ = ["JOIN", "MAX_REWRITES", "MAX_TRIES", "QUIET", "SECONDS", "Call", "Found", "Raised",
           "confirms", "edits", "model", "rewrite", "search", "sentence", "tree_of"]
