"""One slip made at every call of a helper in one function, as one rewrite (issue 38).

The search's sibling pairs (`__init__._pairs`) try two edits of one operator in one function:
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

from .tree import Edit

GROUPS = 12  # such groups tried per failed check, the closest first


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


def groups(tried: list[Edit], scores: dict, paths: list[str], operators: tuple
           ) -> list[tuple[Edit, ...]]:
    """The rewrites of one slip at every call of a helper (see the module's doc), at most
    GROUPS, the ones whose parts come closest to the student's value first (`scores`: an edit's
    distance on the failing call; an edit missing changes nothing there: those last)."""
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
                sum(scores.get(e.name, 0.0) for e in group))

    return sorted(found, key=closeness)[:GROUPS]
