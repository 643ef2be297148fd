"""One slip made at every call of a helper in one function, as one rewrite (issue 38).

The search's sibling pairs (`pairs.pairs_to_try`) try two edits of one operator in one function:
gamma and beta both left out of one LayerNorm. A student who writes the slip at the call site
makes it at every call of that helper in the function: DiT's and ConvNeXt's affine-free norms,
`layer_norm(h, 1.0, 0.0)` for both LayerNorms of a block (ln1_g, ln1_b, ln2_g, ln2_b unused),
or a bias left out of each of a block's projections. `groups` makes those rewrites from the
singles the search has already tried: for a helper the same function calls two times or more
(`encoder_block/layer_norm` and `encoder_block/layer_norm.2`), one edit (or two edits of one
operator, one detail each) made at every one of those calls; a helper whose one edit at every
call the search tries already (`tree`'s `*` path: not a student-API function) gets only the
two-edit groups. Each is named, as any rewrite, only when it reproduces every call."""
from __future__ import annotations

import re

from .change import PLACED
from .evidence import distance
from .omitted import paired
from .runs import run
from .tree import Edit, Instance
from .trial import Raised

GROUPS = 32  # such groups tried per failed check, the closest (on average) first
CLOSEST = 3  # the singles nearest the student's value, each with ...
EXACT = 8  # (more where several return the failing call's value, at most this many)
ROUNDING = 1e-12  # a distance this small: the failing call's value (as the search's)
TWINS = 3  # ... one slip at two places of its function, at most this many (with_twins)
RUN = 4  # slips at two places run on the failing call, the closest first
HALFWAY = 0.5  # ... the nearest taken when it goes at least halfway to the student's value
ANCHORED = 40  # singles tried with it
NAMED_PARTNERS = 40  # singles tried with each mistake another check of the function named
RAISED_ANCHORS = 2  # singles that raise as the student's code did on the failing call, each ...
RAISED_PARTNERS = 40  # ... with at most this many singles of its function that returned there
RAISE_RUNS = 40  # singles run on the failing call to find those anchors
NUMBER = re.compile(r"\d+")


def _place(path: str) -> tuple[str, str] | None:
    """The calling function's path and the helper's name of an instance path
    (`encoder_block/layer_norm.2` -> (`encoder_block`, `layer_norm`)); None for the root."""
    parent, _, last = path.rpartition("/")
    return (parent, last.split(".")[0]) if parent else None


def one_slip(group: list[Edit]) -> bool:
    """Whether `group` is one operator's edit at every call of one helper of one function."""
    places = {(e.operator, _place(e.site.path)) for e in group}
    return (len(places) == 1 and None not in {p for _, p in places}
            and len({e.site.path for e in group}) > 1
            and (len(group) > 2 or len({e.detail for e in group}) == 1))


def told_grouped(group: list[Edit], one: bool) -> str:
    """How a rewrite of several edits is told: one slip at its places (`one`: one operator in
    one function, the search's own rule), or how many mistakes, each numbered once: a slip
    made at every call of a helper or at two places of one function is one of them, its places
    lettered ("2 mistakes at once: (1) One slip, made at 2 places: (a) ... (b) ... (2) ...":
    the moments' axis at both the mean and the variance, and eps outside the root)."""
    if one or one_slip(group):
        return at_each_call(group) or f"One slip, made at {len(group)} places: " + _numbered(group)
    slips = _followed(group)
    if len(slips) < len(group):  # a crop after its tiling test: one slip, told as one
        return _together(slips[0]) if len(slips) == 1 else f"{len(slips)} mistakes at once: " + \
            " ".join(f"({i}) {_together(slip)}" for i, slip in enumerate(slips, 1))
    classes: dict[tuple, list[Edit]] = {}
    for edit in group:
        classes.setdefault((edit.operator, _place(edit.site.path) or edit.site.path),
                           []).append(edit)
    if len(group) < 3 or len(classes) == len(group):
        return f"{len(group)} mistakes at once: " + _numbered(group)
    return f"{len(classes)} mistakes at once: " + " ".join(
        f"({i}) " + (part[0].sentence if len(part) == 1 else at_each_call(part) or
                     f"One slip, made at {len(part)} places: " + " ".join(
                         f"({chr(97 + j)}) {e.sentence}" for j, e in enumerate(part)))
        for i, part in enumerate(classes.values(), 1))


# operators whose edit says what the edit before it at the same place lets through: tiling.py's
# crop (a convolution's floor), after a tiling test missing or partial: no test and the floor
# are one slip of code that floors with nothing to refuse first (round 54's b54_06: "2
# mistakes at once" for one missing tiling test); equal_blocks.py's cut into H // P by W // P
# blocks likewise (round 82's b82_06)
FOLLOWS = ("cropped", "equal_blocks")


def _followed(group: list[Edit]) -> list[list[Edit]]:
    """`group`'s edits, each of FOLLOWS joined to the edit before it at the same place."""
    slips: list[list[Edit]] = []
    for edit in group:
        if slips and edit.operator in FOLLOWS and slips[-1][-1].site.path == edit.site.path:
            slips[-1].append(edit)
        else:
            slips.append([edit])
    return slips


def _together(slip: list[Edit]) -> str:
    """One slip's edits told as one: the first's sentence, then what each later one does."""
    said = slip[0].sentence
    for edit in slip[1:]:
        found = PLACED.fullmatch(edit.sentence)
        said += " Then " + found.group(3) if found else " " + edit.sentence
    return said


def at_each_call(group: list[Edit]) -> str:
    """One slip that edits several terms of a helper, made at each of its calls in one function
    (gamma and beta left out of both LayerNorms of a block: 4 edits), told once with the calls
    it is made at, "One slip, at both of `encoder_block`'s calls of `layer_norm` (...), each
    time: (1) ... (2) ...", not as 4 places a student who wrote one helper would count (round
    53). "" where the group is not so: one site, or sites edited in different terms, or a
    sentence that does not open with its place (`change.where`)."""
    sites: dict[str, list[Edit]] = {}
    for edit in group:
        sites.setdefault(edit.site.path, []).append(edit)
    places = {_place(path) for path in sites}
    details = {tuple(e.detail for e in edits) for edits in sites.values()}
    if len(sites) < 2 or len(places) != 1 or None in places or len(details) != 1 or len(
            next(iter(details))) < 2:
        return ""
    found = [[PLACED.fullmatch(e.sentence) for e in edits] for edits in sites.values()]
    if not all(all(found) and len({m.group(1) for m in match}) == 1 for match in found) or len(
            {match[0].group(1) for match in found}) != 1:
        return ""
    (_, helper), caller = next(iter(places)), found[0][0].group(1)
    steps = [match[0].group(2) for match in found]
    calls = (f" (the model solution's steps {', '.join(steps[:-1])} and {steps[-1]})"
             if all(steps) else "")
    count = "both" if len(sites) == 2 else f"all {len(sites)}"
    return (f"One slip, at {count} of {caller}'s calls of `{helper}`{calls}, each time: "
            + " ".join(f"({i}) {m.group(3)}" for i, m in enumerate(found[0], 1)))


def _numbered(group: list[Edit]) -> str:
    """'(1) <the first edit's sentence> (2) <the second's> ...'."""
    return " ".join(f"({i}) {e.sentence}" for i, e in enumerate(group, 1))


def needed(group: tuple[Edit, ...], tried, alike: str) -> bool:
    """Whether every part of a group of three edits or more is needed: the group without any
    one of them reproduces the calls no more (`tried`: the search's outcome of a group, True
    or `alike` where it reproduces them). A part the others make moot (a max's keepdims where
    another part takes the max away) would be a claim the values do not make."""
    return len(group) < 3 or not any(
        (outcome := tried([e for e in group if e is not part])) is True or outcome == alike
        for part in group)


def groups(scored: list[tuple[float, Edit]], silent: list[Edit], root: Instance, order: list,
           copies: bool, operators: tuple, named: list[Edit] = (),
           returned: list[Edit] = ()) -> list[tuple[Edit, ...]]:
    """The rewrites of one slip at every call of a helper (see the module's doc), at most
    GROUPS, the ones whose parts come closest to the student's value first (`scored`: the
    singles with their distance on the failing call, `order[0]`; `silent`: those that change
    nothing there, last), then `with_twins`', then `omitted.paired`'s, then `with_named`'s
    (`named`: the singles another check of the function named), then `after_raise`'s
    (`returned`: the singles that did not reproduce the failing call)."""
    call = order[0]
    tried, scores = [*(e for _, e in scored), *silent], {e.name: d for d, e in scored}
    paths = [instance.path for instance in root.walk()]
    calls: dict[tuple[str, str], list[str]] = {}
    for path in paths:
        if (place := _place(path)) is not None:
            calls.setdefault(place, []).append(path)
    at: dict[tuple, dict[str, dict[str, Edit]]] = {}
    everywhere = set()
    for edit in tried:
        place = _place(edit.site.path)
        if edit.operator not in operators or place is None:
            continue
        if edit.also:  # the helper's edit at every call, tried already as one single
            everywhere.add((edit.operator, place, edit.detail))
        elif len(calls.get(place, ())) > 1:
            key = (edit.operator, place)
            at.setdefault(key, {}).setdefault(edit.detail, {})[edit.site.path] = edit
    found = []
    for (operator, place), details in at.items():
        every = sorted((d for d, sites in details.items() if len(sites) == len(calls[place])))
        for i, first in enumerate(every):
            if (operator, place, first) not in everywhere:
                found.append(tuple(details[first].values()))
            for second in every[i + 1:]:
                a, b = details[first][calls[place][0]], details[second][calls[place][0]]
                if a.site != b.site:  # two values at one node do not compose
                    found.append((*details[first].values(), *details[second].values()))

    def closeness(group: tuple[Edit, ...]) -> tuple[int, float]:  # a silent part: last
        return (sum(e.name not in scores for e in group),
                sum(scores.get(e.name, 0.0) for e in group) / len(group))

    return (sorted(found, key=closeness)[:GROUPS]
            + with_twins(scored, silent, operators, root, call, copies)
            + paired(scored, silent, root, order, copies)  # a step left out everywhere
            + with_named(scored, named)
            + after_raise(scored, returned, root, call, copies))


def after_raise(scored: list[tuple[float, Edit]], returned: list[Edit], root: Instance,
                call, copies: bool) -> list[tuple[Edit, Edit]]:
    """Where the student's code raised on the failing call (`call`) with a message that quotes
    numbers: each of the first RAISED_ANCHORS singles that raise there too, by the exception's
    type and with those numbers in their message (the same sizes refused: "width 8 ... 12
    heads"), but miss a later call (distance 0.0), with each single of its own function that
    did not reproduce the failing call (`returned`: it returns a value where the first part
    raises first), in the code's order, at most RAISED_PARTNERS: a mistake that raises on some
    cases hides a second one that shows only on the cases where the code returns (google_vit's
    C++ port: 12 heads fixed, a ValueError wherever the width does not take them, and no final
    LayerNorm, seen only where it does). No distance ranks them: the failing call has no
    value."""
    said = set(NUMBER.findall(getattr(call.got, "message", ""))) if isinstance(
        call.got, Raised) else set()
    if not said:
        return []
    anchors = []
    for edit in [e for d, e in scored if d == 0.0 and not e.also][:RAISE_RUNS]:
        ran = run(root, [edit], call, copies)
        if ran is not None and not ran[0] and said <= set(NUMBER.findall(str(ran[1]))):
            anchors.append(edit)
            if len(anchors) == RAISED_ANCHORS:
                break
    return [(a, b) for a in anchors for b in [
        e for e in returned if e.site.path == a.site.path and e.site != a.site
        and not e.also][:RAISED_PARTNERS]]


def with_named(scored: list[tuple[float, Edit]], named: list[Edit]) -> list[tuple[Edit, Edit]]:
    """Each single another check of the function named (`named`) with each single (at most
    NAMED_PARTNERS) that reproduces the failing call, a raise by its type included, but not a
    later one (distance 0.0): a second mistake that shows only where it raises, the named one shows
    everywhere else (nanoGPT's mask buffer sized by the width, a broadcasting error only where
    the tokens outnumber it, and the scores divided by d_h on every call). Where the failing call
    raised, no distance ranks the singles, and the named one alone does not raise there."""
    exact = [e for d, e in scored if d == 0.0][:NAMED_PARTNERS]
    return [(a, b) for a in named for b in exact if a.site != b.site]


def with_twins(scored: list[tuple[float, Edit]], silent: list[Edit], operators: tuple,
               root: Instance, call, copies: bool) -> list[tuple[Edit, ...]]:
    """Three edits, one slip made at two places of one function (the same operator and the
    same change at both: `mean.axis=1` and `var.axis=1`, a LayerNorm's moments over axis 1,
    right on a (T, d) input) and one other single of that function, where the search's pairs
    make two (thinc's `layer_norm`, eps fixed at 1e-8 and its moments over axis 1): each of
    the CLOSEST singles nearest the student's value on the failing call with each such slip
    that changes nothing there (at most TWINS); and the slip nearest the student's value on
    the failing call (`call`, run here: at most RUN slips tried) with each other single of
    its function, at most ANCHORED; and each of the CLOSEST singles of another operator with
    each of the RUN slips nearest the student's value (a normaliser's statistics over the whole
    array with its `* gamma + beta` left out: the slip alone is not halfway there)."""
    ranked = [e for _, e in sorted(scored, key=lambda item: item[0])]
    near = {e.name: d for d, e in scored}
    silent_twins, scored_twins = _twins(silent, operators)[:TWINS], _twins(ranked, operators)
    paired = {e.name for twin in silent_twins for e in twin}
    closest = [e for e in ranked if e.name not in paired]
    exact = sum(1 for e in closest if near[e.name] <= ROUNDING)  # ties: the failing call's
    closest = closest[:min(max(CLOSEST, exact), EXACT)]  # value, each a reading of it
    found = [(e, a, b) for e in closest for a, b in silent_twins
             if e.site.path == a.site.path and e.site not in (a.site, b.site)]
    start, best = distance(call.expected, call.got), None
    nearest = sorted(scored_twins, key=lambda twin: near[twin[0].name] + near[twin[1].name]
                     )[:RUN]  # the slips whose parts come closest first
    found += [(e, a, b) for e in closest for a, b in nearest  # ... with the closest singles:
              if e.site.path == a.site.path and e.site not in (a.site, b.site)  # a second
              and e.operator not in operators]  # mistake that hides the slip (gamma, beta)
    for a, b in nearest:
        ran = run(root, [a, b], call, copies)
        gap = distance(ran[1], call.got) if ran is not None and ran[0] else None
        if gap is not None and start and gap < HALFWAY * start and (best is None
                                                                    or gap < best[0]):
            best = gap, a, b
    if best is not None:  # the slip nearest the student's value (at least halfway there)
        # with each other single of its function: first those that change nothing on the
        # failing call (a second mistake that shows mostly on another: eps fixed at 1e-8,
        # where the failing call's eps is 1e-6), then the nearest
        _, a, b = best
        found += [(e, a, b) for e in [*silent, *ranked] if e.site.path == a.site.path
                  and not e.also and e.site not in (a.site, b.site)
                  and e not in closest][:ANCHORED]
    return found


def _twins(edits: list[Edit], operators: tuple) -> list[tuple[Edit, Edit]]:
    """Two edits of one operator at two places of one function making the same change there."""
    return [(a, b) for i, a in enumerate(edits) for b in edits[i + 1:]
            if a.operator == b.operator and a.operator in operators and not (a.also or b.also)
            and a.site.path == b.site.path and a.site != b.site
            and _change(a.detail) == _change(b.detail) != ""]


def _change(detail: str) -> str:
    """What an edit changes at its place, without the place (`mean.axis=1` -> `axis=1`; a
    detail numbered as a function's second, `.2`, is no change of its own)."""
    return re.sub(r"\.\d+$", "", detail).partition(".")[2]


def known(found: list[list[Edit]], prefer: frozenset) -> list[list[Edit]]:
    """The rewrites found (each reproduces every call) that make a mistake another check of the
    same function named (`prefer`: the names of its parts), where these cases cannot tell it
    from another of its kind: thinc's `layer_norm`, eps fixed at 1e-8 and its moments over
    axis 1, whose hidden cases tell the moments' axis but not 1e-8 from 0, 1e-12 or 1e-6 (eps
    dropped, or fixed at the default), while the check that passes eps=0.5 and tokens of tiny
    variance told 1e-8 alone. The one that makes it is named; none when several do."""
    return [group for group in found if any(e.name in prefer for e in group)]


UNPLACED = "One slip, at one or more of these places (the cases cannot tell which): "


def unplaced(found: list[list[Edit]], rank: dict) -> tuple[list[Edit], list[Edit]] | None:
    """The rewrites found, each reproducing every call, split into what they all share and one
    slip of one operator in one function that these inputs cannot place (`_either`): the
    edits of one (operator, place) that some rewrite found lacks, the only such group and the
    only one with two edits or more; every other edit is in every rewrite found (a second
    mistake the cases do place: onozeam's numpy BatchNorm moved to the rows, its eps fixed at
    1e-5 and both moments re-expanded `mu[:, None]`, where a batch raises at the mean's line
    and the variance's alike). (shared, slip) in the code's order; None when not so."""
    edits = sorted({e.name: e for group in found for e in group}.values(),
                   key=lambda e: rank[e.name])
    names = [{e.name for e in group} for group in found]
    several = [c for c in _by_place(edits) if len(c) > 1]
    if len(several) != 1 or len({e.site for e in several[0]}) != len(several[0]):
        return None
    slip = several[0]
    shared = [e for e in edits if e not in slip]
    if any(not all(e.name in n for n in names) for e in shared) or any(
            not any(e in slip for e in group) for group in found):
        return None
    return shared, slip


def told_unplaced(group: list[Edit]) -> str:
    """The sentence of such a rewrite (`group`: every edit, in the code's order): the slip's
    places, each "at one or more", and the shared mistakes around them as a pair's parts; ""
    for a group with no such slip."""
    slip = next((c for c in _by_place(group) if len(c) > 1), None)
    if slip is None:
        return ""  # no slip of one operator at two places or more: not such a rewrite
    if len(slip) == len(group):
        return UNPLACED + " ".join(f"({i}) {e.sentence}" for i, e in enumerate(slip, 1))
    parts, told = [], False
    for edit in group:
        if edit not in slip:
            parts.append(edit.sentence)
        elif not told:
            told = True
            parts.append(UNPLACED + " ".join(f"({chr(97 + i)}) {e.sentence}"
                                             for i, e in enumerate(slip)))
    return f"{len(parts)} mistakes at once: " + " ".join(
        f"({i}) {part}" for i, part in enumerate(parts, 1))


def _by_place(group: list[Edit]) -> list[list[Edit]]:
    """The edits of `group` by (operator, place), in the order of their first edit."""
    classes: dict[tuple, list[Edit]] = {}
    for edit in group:
        classes.setdefault((edit.operator, edit.site.path), []).append(edit)
    return list(classes.values())
