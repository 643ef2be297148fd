"""A call the student's function refused as Python bound its arguments (issue 38, b10_01: timm's
`class_token` for the API's `cls_token`) is said plainly, from the call the grader made and the
student API only (checks/kinds/signatures.py); a TypeError raised inside the student's code, or
an error text that names another function or a keyword the grader did not pass, is not."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from grader import load_specs
from grader.checks.cases import PlannedCase
from grader.checks.kinds import CallCheck
from grader.checks.kinds.signatures import mismatched
from grader.checks.results import FAILED, MISTAKE, CheckResult
from grader.worker import StudentWorker
from grader.worker.outcomes import StudentError

from conftest import EXERCISES


@pytest.fixture(scope="module")
def check():
    exercises, errors = load_specs(EXERCISES)
    assert not errors
    return next(c for e in exercises for c in e.checks
                if isinstance(c, CallCheck) and c.call == "num_tokens")


def _told(check, message, args=(384, 384, 16), kwargs=None, where=None, raised_in=None):
    failed = CheckResult(check.name, 1, 0, FAILED, "case 1 of 1", hint="the check's hint")
    planned = PlannedCase(args, kwargs if kwargs is not None else {"cls_token": False}, None,
                          None, "num_tokens", None, (196, None))
    error = StudentError("TypeError", message, "", where, raised_in=raised_in)
    said = mismatched(failed, check, planned, SimpleNamespace(status="raised", error=error))
    return said if said is not failed else None


def test_a_keyword_the_function_has_no_parameter_for_is_named_as_the_api_names_it(check):
    said = _told(check, "num_tokens() got an unexpected keyword argument 'cls_token'")
    assert said.hint == ("Your `num_tokens` has no parameter `cls_token`: the student API names "
                         "it `cls_token` (docs/student-api.md), and this call passes it by that "
                         "name; rename yours.")
    assert said.hint_kind == MISTAKE and said.misconception == "signature_differs"


def test_a_required_parameter_too_many_or_positional_ones_too_few_are_said(check):
    missing = _told(check, "num_tokens() missing 1 required positional argument: 'C'")
    assert missing.hint.startswith("Your `num_tokens` requires 1 more argument than this call "
                                   "passes (3 positional arguments and cls_token by keyword)")
    assert "needs only (H, W, P)" in missing.hint and "'C'" not in missing.hint
    fewer = _told(check, "num_tokens() takes 2 positional arguments but 3 were given", kwargs={})
    assert fewer.hint.startswith("Your `num_tokens` takes at most 2 positional arguments, and "
                                 "this call passes 3: the student API's `num_tokens` takes "
                                 "(H, W, P)")


@pytest.mark.parametrize("message, options", [
    ("num_tokens() got an unexpected keyword argument 'cls_token'",
     {"where": "submission.py:3"}),  # raised inside the student's code: a call of theirs
    ("num_tokens() got an unexpected keyword argument 'cls_token'",
     {"raised_in": "num_tokens"}),
    ("helper() got an unexpected keyword argument 'cls_token'", {}),  # another function's
    ("num_tokens() got an unexpected keyword argument 'evil_text'", {}),  # not the grader's
    ("num_tokens() takes 2 positional arguments but 4 were given", {}),  # not this call's 3
    ("unsupported operand type(s) for +: 'int' and 'str'", {}),
])
def test_nothing_is_said_of_a_type_error_that_is_not_the_calls_own(check, message, options):
    assert _told(check, message, **options) is None


def test_the_worker_reports_a_binding_error_without_a_frame_of_the_students(tmp_path, check):
    """What `mismatched` relies on: Python refusing the call has no frame of the submission's;
    the same error from a call inside the student's code has one."""
    submission = tmp_path / "submission.py"
    submission.write_text(
        "def num_tokens(H, W, P, class_token=True):\n"
        "    return (H // P) * (W // P) + bool(class_token)\n\n"
        "def num_patches(H, W, P):\n"
        "    return num_tokens(H, W, P, cls_token=False)\n")
    with StudentWorker(submission) as worker:
        own = worker.call("num_tokens", (384, 384, 16), {"cls_token": False})
        inner = worker.call("num_patches", (384, 384, 16))
    assert own.status == "raised" and own.error.where is None
    assert _told(check, own.error.message, where=own.error.where,
                 raised_in=own.error.raised_in).misconception == "signature_differs"
    assert inner.status == "raised" and inner.error.where is not None


@pytest.mark.parametrize("source, named", [
    ("def num_tokens(P, H, W, cls_token=True):\n"  # a tutorial's order: the patch size first
     "    return (H // P) * (W // P) + bool(cls_token)\n", True),
    ("def num_tokens(H, W, P, cls_token=True):\n"  # the API's order, a wrong count
     "    return (H // P) * (W // P) + 2 * bool(cls_token)\n", False),
    ("CALLS = []\n"  # right from its second call on, whatever the order: no cause of order
     "def num_tokens(H, W, P, cls_token=True):\n"
     "    CALLS.append(1)\n"
     "    return (H // P) * (W // P) + bool(cls_token) + (len(CALLS) <= 2)\n", False),
])
def test_parameters_in_another_order_are_named_only_where_names_make_every_case_right(
        tmp_path, check, source, named):
    """signatures.reordered: called by name, right on every case, and by position still wrong
    where it was: the order of its parameters is the one difference (b15_12's
    `linear_patch_embed(image, P, W_e, b_e)`)."""
    from grader.checks.kinds.signatures import reordered

    submission = tmp_path / "submission.py"
    submission.write_text(source)
    cases = [PlannedCase((384, 384, 16), {"cls_token": False}, None, None, "num_tokens", None,
                         (576, None)),
             PlannedCase((32, 64, 16), {"cls_token": True}, None, None, "num_tokens", None,
                         (9, None))]
    with StudentWorker(submission) as worker:
        ran = [(p, worker.call("num_tokens", p.args, p.kwargs)) for p in cases]
        failed = CheckResult(check.name, 1, 0, FAILED, "case 1 of 2", hint="the check's hint")
        said = reordered(failed, check, ran, worker, check._right)
    if named:
        assert said.misconception == "parameters_reordered" and said.hint_kind == MISTAKE
        assert "takes (H, W, P)" in said.hint
    else:
        assert said is failed


def test_the_order_is_tried_in_stages_that_stop_at_the_first_wrong_call_by_name(tmp_path, check):
    """signatures.reordered calls by name first the cases up to the first one wrong by position
    and stops there when that one is still wrong (a wrong formula, not an order): 1 call, not
    the 2 x 3 of every case by name and by position; a code whose order is the mistake still
    gets every call (and the name), in the same sequence."""
    from grader.checks.kinds.signatures import reordered

    cases = [PlannedCase((32, 64, 16), {"cls_token": True}, None, None, "num_tokens", None,
                         (9, None)),
             PlannedCase((384, 384, 16), {"cls_token": False}, None, None, "num_tokens", None,
                         (576, None)),
             PlannedCase((48, 48, 16), {"cls_token": False}, None, None, "num_tokens", None,
                         (9, None))]
    for source, calls, named in (
            ("def num_tokens(H, W, P, cls_token=True):\n"  # wrong whatever the order
             "    return (H // P) * (W // P) + 2\n", 1, False),
            ("def num_tokens(P, H, W, cls_token=True):\n"  # the order is the mistake
             "    return (H // P) * (W // P) + bool(cls_token)\n", 6, True)):
        submission = tmp_path / "submission.py"
        submission.write_text(source)
        with StudentWorker(submission) as worker:
            ran = [(p, worker.call("num_tokens", p.args, p.kwargs)) for p in cases]
            sent = []
            counting = SimpleNamespace(call_many=lambda name, encoded, sent=sent, worker=worker:
                                       sent.extend(encoded) or worker.call_many(name, encoded))
            failed = CheckResult(check.name, 1, 0, FAILED, "case 1 of 3", hint="the hint")
            said = reordered(failed, check, ran, counting, check._right)
        assert len(sent) == calls
        assert (said.misconception == "parameters_reordered") is named
        assert (said is failed) is not named
