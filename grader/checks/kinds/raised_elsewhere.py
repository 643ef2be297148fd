"""A listed mistake named on a failed case, where the same check's code raised on another case
that should have returned a value (kinds/call.py): the listed mistake returns a value there, so
it explains the failed case and not that raise. The error model is asked for a cause that
reproduces every case the check ran, the raise included (a final LayerNorm left out, and a loop
whose first pass is written before it, `blocks[0]`, on a ViT given no blocks): named when one
does, else the listed mistake stays, true of the case it was named on."""
from __future__ import annotations

from ..results import FAILED
from .mistakes import generated


def raised_where_listed_returns(result, ran: list) -> bool:
    """Whether `result` names a listed mistake and a case of `ran` ((planned case, outcome)
    pairs) raised where a value was expected and that mistake returns one."""
    name = result.misconception
    return bool(result.status == FAILED and name and not name.startswith("op:") and any(
        outcome.status == "raised" and planned.expectation()[1] is None
        and planned.wrong_output(name)[0] for planned, outcome in ran))


def generated_beside_raise(result, check, ran: list, failing: int, others: list, elsewhere: list,
                           unnamed):
    """`generated(...)` (mistakes.py) for `result`; where its listed mistake does not explain a
    raise of the same check (`raised_where_listed_returns`), on the result without it
    (`unnamed(result)`), the listed one kept when the error model names nothing."""
    if not raised_where_listed_returns(result, ran):
        return generated(result, check, ran, failing, others, elsewhere)
    found = generated(unnamed(result), check, ran, failing, others, elsewhere)
    return found if found.misconception else result
