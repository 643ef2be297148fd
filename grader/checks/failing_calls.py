"""What the calls a function's checks judged say of its failures, for dependencies.py's
`_ruled_out` (why another exercise's failures of a function are not a check's cause): whether
every failing call was due an exception, a refusal's case (`refusals_only`), and the features of
a call's inputs a failure may depend on (`call_features`: one head, a batch, a square image)."""
from __future__ import annotations

import numpy as np


def refusals_only(calls: list) -> bool:
    """Whether the (planned case, judged right) calls include a failing one and every failing
    one is due an exception (a refusal's case: its failure is the wrong exception or none)."""
    failing = [p for p, right in calls if not right]
    return bool(failing) and all(p.expectation()[1] is not None for p in failing)


def call_features(planned) -> dict:
    """What a call's failure may depend on, of its inputs: each integer argument's being 1 (one
    head), each array's number of axes (a batch) and, for an image's (H, W, C) axes, whether
    H == W; the first two integer arguments' being equal (num_tokens(H, W, P): a square)."""
    found, numbers = {}, []
    for name, value in [*enumerate(planned.args), *sorted(planned.kwargs.items())]:
        if isinstance(value, (bool, np.bool_)):
            continue
        if isinstance(value, (int, np.integer)):
            found[("one", name)] = value == 1
            numbers.append(value)
        elif isinstance(value, np.ndarray):
            found[("axes", name)] = value.ndim
            if value.ndim >= 3:
                found[("square", name)] = value.shape[-3] == value.shape[-2]
    if len(numbers) >= 2:
        found[("square", "numbers")] = numbers[0] == numbers[1]
    return found
