"""What a regraded check says: whose own code a failure graded around correct helpers is in,
and which functions' values a check that judged each function found wrong (dependencies.py's
sentences, kept apart from its rules)."""

from __future__ import annotations

from dataclasses import replace

from grader.spec.model import Check

from .describe import failed_in, quoted_names, stand_in_note
from .results import MISTAKE, OBSERVATION, CheckResult


def failing_functions(result: CheckResult, check: Check) -> tuple[str, ...]:
    """The student functions whose own code a failure graded around correct helpers is in:
    the checked one; a property's, the one it says failed (or whose values were not all right),
    else every one it tests (not its yardstick, stood in for)."""
    if check.function:
        return (check.function,)
    said = failed_in(result.message)
    wrong = tuple(name for name, right in result.outputs if not right)
    return (said,) if said else wrong or check.names_tested()


def explained(result: CheckResult, roots: tuple[str, ...], home,
               failing: tuple[str, ...] = ()) -> str:
    """The result's message, saying which stand-ins it was graded with and whose own code
    the failure is in (`failing`: "in `linear_patch_embed`'s own code"), unless it ran out of
    time."""
    names = quoted_names(roots)
    where = ", ".join(dict.fromkeys(home(r) for r in roots))
    verb = "is" if len(roots) == 1 else "are"
    if result.passed:
        return (f"{stand_in_note(roots)}: your code here is right, but your {names} {verb} "
                f"wrong (see {where})")
    whose = "" if result.timed_out else f"; so this failure is in {own_code(failing)}"  # out
    # of time, it may be in no code at all (a busy machine: timed_out.py)
    note = (f"(graded with the grader's correct {names} standing in for yours, which {verb} "
            f"wrong: see {where}{whose})")
    return f"{result.message}\n{note}" if result.message else note


# what a regrade note says of one function (report/own_code.py names the submission's own
# helpers it calls, which no check grades alone, beside it)
OWN_CODE = "'s own code"


def own_code(failing: tuple[str, ...]) -> str:
    """Whose code a failure graded around correct helpers is in, by name."""
    if len(failing) == 1:
        return f"`{failing[0]}`{OWN_CODE}"
    return (f"the code of {quoted_names(failing)} themselves" if failing
            else "this function's own code")


def differs(right: list, wrong: list) -> str:
    """"Your `num_tokens` returns the expected values here; your `attention_scores` does not
    (of what it is given)." : what a check that judged each function's values found."""
    ok = (f"Your {quoted_names(right)} {'returns' if len(right) == 1 else 'return'} the expected "
          f"values here; your ") if right else "Your "
    one = len(wrong) == 1
    return (ok + f"{quoted_names(wrong)} {'returns' if one else 'return'} other values than "
            f"the expected ones (of the inputs {'it is' if one else 'they are'} given).")


def through_unanswered(result: CheckResult, function: str | None, used, losing) -> CheckResult:
    """`result` of a check not graded again because a stand-in its function called could not
    answer (`used`: the broken helpers it called, sorted): where no mistake is named, the hint
    names those helpers' roots (`losing`: dependencies.py's "Your `num_patches` loses points in
    its own exercise (patch-count): fix it there first, as its mistake may be what fails here.")
    in place of what it said of the function alone: the failing call went through them, so a
    generalisation of the function's own code ("right when H == W: use H and W each where they
    belong") may be the helper's (blind round 71's b71_10, an `embed_image` counting its rows
    with its own `num_tokens`). A property's own finding stays."""
    if result.passed or not function or not used or result.hint_kind == MISTAKE:
        return result
    hint = (f"Your `{function}` ran your {quoted_names(used)} on this check, which could "
            f"not be graded again with a correct one (see above). {losing}")
    return replace(result, hint=hint, hint_kind=OBSERVATION, misconception=None, raised=None)
