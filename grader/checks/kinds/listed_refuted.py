"""Whether another case a check ran refutes the listed misconception named on its failing case
(CallCheck._reproduced): the failing case alone may not tell that mistake from another cause (a
mean of tokens 0 and 1 is the mean of every token for one patch)."""
from __future__ import annotations

from ..compare import Compare, default_compare
from .mistakes import output_matches


def refutes(planned, outcome, name: str, how: Compare | None) -> bool:
    """Whether the code's `outcome` on the case `planned` (cases.PlannedCase) contradicts the
    listed misconception `name`; `how`: the check's own comparison (None: the default for the
    value compared)."""
    expected, raises = planned.expectation()
    if raises is not None and outcome.status == "ok":  # a value where a refusal was due: the
        applies, wrong = planned.wrong_output(name)  # mistake's own, or not its cause (blocks
        # of H // (H // P) pixels are a crop to P's multiple on 9 x 8 with P = 2 only: b77_10)
        return applies and not output_matches(wrong, outcome.value, how or default_compare(wrong))
    if raises is not None:  # it raised as it should where the mistake returns a value
        return bool(outcome.status == "raised" and outcome.error.type == raises
                    and planned.wrong_output(name)[0])
    if outcome.status == "ok":
        applies, wrong = planned.wrong_output(name)
        return applies and not output_matches(wrong, outcome.value,
                                              how or default_compare(expected))
    if outcome.status == "raised":  # the code raised where the mistake returns the right
        applies, wrong = planned.wrong_output(name)  # value: not its cause (a scale of
        # sqrt(d_h // 3) is no "not scaled": it raises ZeroDivisionError where d_h < 3, the
        # unscaled scores right for d_h = 1)
        return applies and output_matches(wrong, expected, how or default_compare(expected))
    return False
