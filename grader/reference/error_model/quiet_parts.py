"""A pair's part that changes nothing alone, of the same kind as the part told (blind round 68).

b68_05's softmax has no max and sums over axis 0. On small cases two pairs reproduce it: the
max and the sum both over axis 0 ("one slip, made at 2 places"), and the max over the whole
array, which alone changes nothing, with the sum over axis 0. Once the sum is over axis 0, the
max's axis changes none of the values, so no case tells what the code does there (it has none):
"`np.max(...)` taken over axis 0" stated a max the code does not have. So a part of one
operator's pair (one function, one operator) that changes nothing alone is quiet like a mask's
finite fill (`__init__.QUIET`), and where every pair found makes the other part, with only
another edit at the quiet part's place beside it, the other part is told, with this module's
note: the place, as the model solution's code, and that these cases cannot tell what is there.
"""
from __future__ import annotations

from .change import code
from .tree import Edit, Instance, nodes

NOTE = (" Your code may also differ at the model solution's `{place}`: with this slip, these "
        "cases cannot tell how (more than one change there, one that alone changes nothing, "
        "gives your values).")


def same_kind(told: Edit, quiet: Edit) -> bool:
    """Whether the quiet part is an edit of the told part's operator in the same function."""
    return (told.operator, told.site.path) == (quiet.operator, quiet.site.path)


def note(root: Instance | None, quiet: Edit) -> str:
    """NOTE for the quiet part's place (the model solution's code there); "" without a root."""
    if root is None:
        return ""
    instance = next((i for i in root.walk() if i.path == quiet.site.path), None)
    found = None if instance is None else next(
        (n for i, (n, _, _, _) in enumerate(nodes(instance.node)) if i == quiet.site.index), None)
    return "" if found is None else NOTE.format(place=code(found))


def undetermined(found: list[list[Edit]], quiet: dict, join: str) -> tuple | None:
    """(the group, its quiet part) where one group found has a quiet part of the same kind as
    its told one, and every other group found makes the told part with only an edit at the
    quiet part's place beside it; else None."""
    quieted = [g for g in found if join.join(e.name for e in g) in quiet]
    if len(quieted) != 1:
        return None
    group = quieted[0]
    idle = quiet[join.join(e.name for e in group)]
    told = [e for e in group if e is not idle]
    if len(told) != 1 or not same_kind(told[0], idle):
        return None
    others = [g for g in found if g is not group]
    if not all(told[0] in g and len(g) == 2 and all(e.site == idle.site for e in g
                                                      if e is not told[0]) for g in others):
        return None
    return group, idle
