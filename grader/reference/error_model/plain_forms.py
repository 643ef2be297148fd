"""A mistake written in another form of the step, and the same mistake in the model solution's
own form: where both reproduce every call, the calls do not reach what tells the forms apart,
and the plain one is named (its sentence a claim about values alone, the other's about how the
code is written too).

An operator module declares its form edits in `PLAIN` (`logsumexp.PLAIN`: the log-sum-exp
softmax with its max over the whole array, whose plain reading is the exp/sum softmax with that
max, `max.axis=None`; they differ only on a slice whose every exp underflows, inf against NaN).
Blind round 76's b76_11: `e = np.exp(x - x.max())` and `e / np.sum(e, axis=axis)`, no keepdims;
every case of a 2-D x either raised at the sum or returned values with no slice underflowing, so
both forms beside the sum's missing keepdims reproduced it, and the search named neither."""
from __future__ import annotations

from .tree import Edit


def plain_readings(found: list[list[Edit]], plain: dict[str, str]) -> list[list[Edit]]:
    """`found` (rewrites, each a list of edits, each reproducing every call) without each one
    that holds a form edit (its detail a key of `plain`) where another found is the same but
    for that edit, made in the plain form instead (the detail `plain` gives, at the same
    function): the same mistake read two ways these calls cannot tell apart."""
    def rest(group: list[Edit], left: Edit) -> set[str]:
        return {e.name for e in group if e is not left}

    def twin(group: list[Edit], form: Edit) -> bool:
        return any(other is not group and len(other) == len(group) and any(
            e.detail == plain[form.detail] and e.site.path == form.site.path
            and rest(other, e) == rest(group, form) for e in other) for other in found)

    return [group for group in found
            if not any(e.detail in plain and twin(group, e) for e in group)]
