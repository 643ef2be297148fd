"""What a call that could not even start names (issue 38, "say what is observed"): the student's
function raised TypeError as Python bound the call's arguments, before a line of it ran, because
its parameters are not the student API's: no parameter of the name the call passes by keyword
(timm's `class_token` for the API's `cls_token`), a required parameter the call does not fill,
or fewer positional parameters than the call passes.

The error's text is the student's process's (untrusted): it is only matched, never shown. What is
said comes from the call the grader made (the keyword it passed, the number of positional
arguments) and from the student API; a TypeError from inside the student's code (one of its own
frames in the traceback: `where`) or one of another function is not this, and is left alone.

`mismatched(result, check, planned, outcome)`: the failed `result` with that mistake named,
`signature_differs`: Python's own binding of the call saw the parameters differ, so the cause is
seen, not guessed (as a write in place or an `assert` for a refusal are).
"""
from __future__ import annotations

import re
from dataclasses import replace

from ..results import FAILED, MISTAKE

API_DOC = "docs/student-api.md"
_NAME = r"(?P<function>[A-Za-z_][\w.<>]*)\(\) "
UNEXPECTED = re.compile(_NAME + r"got an unexpected keyword argument '(?P<keyword>\w+)'")
MISSING = re.compile(_NAME + r"missing (?P<count>\d{1,3}) required (?:positional|keyword-only) "
                     r"arguments?: ")
TOO_MANY = re.compile(_NAME + r"takes (?:from \d{1,3} to )?(?P<takes>\d{1,3}) positional "
                      r"arguments? but (?P<given>\d{1,3}) (?:were|was) given")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def mismatched(result, check, planned, outcome):
    """`result` with what is true of a call the student's function refused as Python bound its
    arguments (its parameters differ from the student API's), as a named mistake; else as it
    is."""
    error = outcome.error if outcome.status == "raised" else None
    if (result.status != FAILED or error is None or error.type != "TypeError"
            or error.where is not None or error.raised_in is not None):
        return result
    name, message = check.function, error.message
    words = None
    unexpected, missing, too_many = (UNEXPECTED.match(message), MISSING.match(message),
                                     TOO_MANY.match(message))
    if (unexpected and _called(unexpected, name) and unexpected["keyword"].isidentifier()
            and unexpected["keyword"] in planned.kwargs):  # a keyword the grader passed
        keyword = unexpected["keyword"]
        words = (f"has no parameter `{keyword}`: the student API names it `{keyword}` "
                 f"({API_DOC}), and this call passes it by that name; rename yours")
    elif missing and _called(missing, name):
        words = (f"requires {_plural(int(missing['count']), 'more argument')} than this call "
                 f"passes ({_passed(planned)}): the student API's `{name}` needs only "
                 f"{_needs(check)} ({API_DOC}); give any other parameter of yours a default")
    elif too_many and _called(too_many, name) and int(too_many["given"]) == len(planned.args):
        takes = _plural(int(too_many["takes"]), "positional argument")
        words = (f"takes at most {takes}, and this call passes {len(planned.args)}: the "
                 f"student API's `{name}` takes {_needs(check)} ({API_DOC}); give yours the same "
                 "parameters, in that order")
    if words is None:
        return result
    return replace(result, hint=f"Your `{name}` {words}.", misconception="signature_differs",
                   hint_kind=MISTAKE)


def _called(found, name: str) -> bool:
    """Whether the error names the function called: its own qualified name ends in `name`."""
    return found["function"].rsplit(".", 1)[-1] == name


def _passed(planned) -> str:
    keywords = [k for k in planned.kwargs if isinstance(k, str) and k.isidentifier()]
    positional = _plural(len(planned.args), "positional argument")
    return positional + (f" and {', '.join(keywords)} by keyword" if keywords else "")


def _needs(check) -> str:
    params = check.api.params(check.reference_name)
    return f"({', '.join(params)})" if params else "the parameters it lists"


def reordered(result, check, ran: list, worker, right):
    """`result` with, as a named mistake, parameters in another order than the student API's:
    where the code, called with every argument of the cases that ran (`ran`: (planned case,
    outcome) pairs) by its API name, returns or refuses right on every one, and called again
    as the check called it (by position), is still wrong where it was; `right(planned,
    outcome)`: the check's verdict on a case. Python's binding is then the one difference: a
    ViT-from-scratch tutorial's `linear_patch_embed(image, P, W_e, b_e)` for the API's
    `(image, W_e, b_e, P)`. A correct code, right by position, never gets here."""
    params = check.api.params(check.reference_name)
    if (worker is None or result.status != FAILED or result.misconception or check.integration
            or not params or not ran or any(len(p.args) > len(params) for p, _ in ran)
            or not any(p.args and not right(p, o) for p, o in ran)):
        return result
    from grader.worker.values import encode_call  # the worker's encoding, as refusals.py's

    named = [encode_call((), {**dict(zip(params, p.args, strict=False)), **p.kwargs})
             for p, _ in ran]
    again = [encode_call(p.args, p.kwargs) for p, _ in ran]
    # The calls are the one sequence `named + again`, sent in stages that stop at the first
    # call whose answer settles "no" (a by-name call that is not right): up to the first case
    # that was wrong by position (most codes are wrong by name there too), the other by-name
    # ones, then `again`. The worker runs the calls of a request one after another, as the
    # calls of several requests in a row, so every call that runs gets the answer it would
    # have got in one request; the calls skipped could only have confirmed the "no" (a
    # correct parameter order, or one mistake more), never named this.
    first = next(i for i, (p, o) in enumerate(ran) if p.args and not right(p, o)) + 1
    by_name = []
    for stage in (named[:first], named[first:]):
        if stage:
            by_name += worker.call_many(check.call, stage)
        if not all(right(p, o) for (p, _), o in zip(ran, by_name, strict=False)):
            return result
    by_position = worker.call_many(check.call, again)
    if any(right(p, o) != right(p, before) for (p, before), o in zip(ran, by_position,
                                                                  strict=True)):
        return result
    name = check.function
    return replace(result, misconception="parameters_reordered", hint_kind=MISTAKE, hint=(
        f"Your `{name}` is right on every case when each argument is passed by its name: its "
        f"parameters are the student API's in another order. The API's `{name}` takes "
        f"{_needs(check)} ({API_DOC}), and a call that passes them by position binds each to "
        "another of your parameters. Put yours in that order."))


TITLES = {"signature_differs": "parameters named or counted unlike the student API's",
          "parameters_reordered": "parameters in another order than the student API's"}
