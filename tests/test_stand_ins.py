"""One bug costs points once: checks graded around the student's broken helpers with stand-ins.

Each submission here is the solution with a function or two replaced (buggy_submissions.py), so
what is right and what is wrong is known exactly. The catalogue-wide rule (only exercises whose
`uses:` names the broken function lose points) is tested over every buggy fixture in
test_catalogue.py; this file tests the mechanism: the verdicts, the roots, the messages, the
table, the trust boundary, and stand-ins that student code abuses.
"""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from buggy_submissions import submission_text

from grader.checks import SubmissionGrading
from grader.checks.compare import Compare
from grader.checks.stand_ins import matches
from grader.worker import StudentWorker

from conftest import EXERCISES, SOLUTION, SUBMISSIONS, TEMPLATE

CHANNEL_FIRST = SUBMISSIONS / "buggy" / "patchify_channel_first.py"


def graded(path, catalogue, zygote=None) -> dict:
    with StudentWorker(path, zygote=zygote) as worker:
        grading = SubmissionGrading(worker, catalogue=catalogue)
        return {e.id: grading.exercise(e) for e in catalogue}


def with_replaced(tmp_path, snippet_text: str, name: str = "vit_exercises.py"):
    """The solution with the snippet's top-level definitions put in place of its own."""
    snippet = tmp_path / "snippet.py"
    snippet.write_text(textwrap.dedent(snippet_text))
    path = tmp_path / name
    path.write_text(submission_text(snippet))
    return path


@pytest.fixture(scope="module")
def channel_first(catalogue, tmp_path_factory, zygote):
    folder = tmp_path_factory.mktemp("channel-first")
    path = folder / "vit_exercises.py"
    path.write_text(submission_text(CHANNEL_FIRST))
    return path, graded(path, catalogue, zygote)


def test_a_correct_vit_forward_on_a_wrong_patchify_gets_its_points_and_names_patchify(
        channel_first):
    _, results = channel_first
    vit = results["vit-forward"]
    assert vit.score == vit.max_score
    assert vit.stand_ins == ("patchify",)  # the root, not embed_image which only calls it
    assert all(c.passed and c.stand_ins for c in vit.checks)
    assert "your `patchify` is wrong (see patchify)" in vit.checks[0].message


def test_the_broken_function_itself_loses_its_points_with_its_own_hint(channel_first):
    _, results = channel_first
    patchify = results["patchify"]
    assert patchify.score < patchify.max_score
    assert {c.misconception for c in patchify.checks if not c.passed} == {
        "patchify_channel_first"}
    assert not patchify.stand_ins  # its own checks are never graded around itself


def test_an_integration_check_grades_the_whole_pipeline(channel_first, catalogue):
    _, results = channel_first
    checkpoint = results["vit-checkpoint"]
    spec = next(e for e in catalogue if e.id == "vit-checkpoint")
    assert all(c.integration for c in spec.checks) and "patchify" in spec.uses
    assert checkpoint.score == 0 and not checkpoint.stand_ins
    hints = {c.hint for c in checkpoint.checks if not c.passed}
    assert hints and all("Your `patchify` loses points in its own exercise (patchify)" in h
                         and "your code may not" in h for h in hints)  # no claim it is called


def test_every_other_exercise_keeps_full_marks(channel_first, catalogue):
    _, results = channel_first
    uses = {e.id: e.uses for e in catalogue}
    lost = {i for i, r in results.items() if r.score < r.max_score}
    assert lost == {i for i in lost if "patchify" in uses[i]} == {"patchify", "vit-checkpoint"}


def test_a_function_that_repeats_the_bug_in_its_own_code_still_loses_with_its_own_hint(
        tmp_path, catalogue, zygote):
    path = with_replaced(tmp_path, '''
        def patchify(image, P):
            raise NotImplementedError()


        def linear_patch_embed(image, W_e, b_e, P):
            image = _as_hwc(image)
            H, W, C = image.shape
            num_patches(H, W, P)
            grid = image.reshape(H // P, P, W // P, P, C).transpose(0, 2, 4, 1, 3)
            return grid.reshape(-1, P * P * C) @ W_e + b_e
        ''')
    results = graded(path, catalogue, zygote)
    embed = results["linear-patch-embed"]
    assert embed.score < embed.max_score
    failed = [c for c in embed.checks if not c.passed]
    assert {c.misconception for c in failed} == {"linear_embed_channel_first"}
    assert not embed.stand_ins  # it never called the stand-in: graded on its own code
    # a helper that is not written yet does not cost its callers either
    assert results["cls-and-positions"].score == results["cls-and-positions"].max_score


def test_a_failure_of_the_functions_own_code_says_which_stand_ins_it_was_graded_with(
        tmp_path, catalogue, zygote):
    path = with_replaced(tmp_path, '''
        def patchify(image, P):
            raise NotImplementedError()


        def linear_patch_embed(image, W_e, b_e, P):
            return patchify(image, P) @ W_e  # the bias forgotten, on top of a missing patchify
        ''')
    embed = graded(path, catalogue, zygote)["linear-patch-embed"]
    first = next(c for c in embed.checks if not c.passed)
    assert first.misconception == "linear_embed_bias_forgotten"
    assert first.stand_ins == ("patchify",)
    assert "graded with the grader's correct `patchify` standing in for yours" in first.message


def test_stand_ins_bring_no_reference_into_the_worker(tmp_path, catalogue, zygote):
    """The student's function, running on a stand-in, looks for the reference in its own
    process: were it there, the check would fail."""
    path = with_replaced(tmp_path, '''
        def patchify(image, P):
            return np.zeros((1, 1))


        def linear_patch_embed(image, W_e, b_e, P):
            import sys
            leaked = [m for m in sys.modules if m.startswith(("grader.reference", "grader.checks",
                                                              "grader.spec"))]
            if leaked:
                raise RuntimeError(f"the reference is here: {leaked}")
            return patchify(image, P) @ W_e + b_e
        ''')
    embed = graded(path, catalogue, zygote)["linear-patch-embed"]
    assert embed.score == embed.max_score, [c.message for c in embed.checks]
    assert embed.stand_ins == ("patchify",)


ABUSE = {
    "huge arguments": '''
        def linear_patch_embed(image, W_e, b_e, P):
            patchify(np.zeros((3000, 3000, 3)), 1)  # far beyond the case: not answered
            return patchify(image, P) @ W_e + b_e
        ''',
    "kept past its call": '''
        def linear_patch_embed(image, W_e, b_e, P, kept=[]):  # noqa: B006 - the point
            if kept:
                kept[-1](image, P)  # the stand-in of an earlier call
            kept.append(patchify)
            return patchify(image, P) @ W_e + b_e
        ''',
    "not data": '''
        def linear_patch_embed(image, W_e, b_e, P):
            return patchify(object(), P) @ W_e + b_e
        ''',
    "called in a loop": '''
        def linear_patch_embed(image, W_e, b_e, P):
            for _ in range(20_000):
                tokens = patchify(image, P)
            return tokens @ W_e + b_e
        ''',
}


@pytest.mark.parametrize("abuse", ABUSE, ids=list(ABUSE))
def test_abused_stand_ins_cost_only_the_check_that_abused_them(tmp_path, catalogue, zygote,
                                                                abuse):
    broken = '''
        def patchify(image, P):
            return np.zeros((1, 1))
        '''
    path = with_replaced(tmp_path, broken + "\n\n" + ABUSE[abuse])
    results = graded(path, catalogue, zygote)
    embed = results["linear-patch-embed"]
    assert embed.score < embed.max_score  # never the points of a right function
    assert all(c.status in ("failed", "passed") for c in embed.checks)
    assert results["patch-count"].score == results["patch-count"].max_score


def test_the_table_marks_exercises_passed_with_stand_ins_and_says_what_to_fix_first(
        channel_first, tmp_path):
    path, _ = channel_first
    out = tmp_path / "results.json"
    run = subprocess.run([sys.executable, "-m", "grader.cli", "grade", str(path),
                          "--exercises", str(EXERCISES), "--json", str(out)],
                         capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert run.returncode == 1, run.stderr
    lines = run.stdout.splitlines()
    fix = [line for line in lines if line.startswith("fix `patchify` first")]
    assert len(fix) == 1 and "4 exercises depend on it" in fix[0]
    assert any(line.startswith("vit-forward ") and line.endswith("ok*") for line in lines)
    assert any(line.startswith("patch-count ") and line.endswith(" ok") for line in lines)
    assert "* passed with the grader's correct `patchify` standing in for yours" in lines
    results = json.loads(out.read_text())
    vit = [t for t in results["tests"] if t["name"].startswith("vit-forward")]
    assert vit and all(t["status"] == "passed" for t in vit)
    assert "standing in for yours" in vit[0]["output"]


def test_pytest_student_grades_around_broken_helpers_too(channel_first, grade_with):
    path, results = channel_first
    run = grade_with(path)
    text = run.stdout.str()
    assert "fix `patchify` first" in text
    score, total = (sum(getattr(r, what) for r in results.values())
                    for what in ("score", "max_score"))
    assert score < total and f"{score:g} / {total:g}" in text  # the same grades as the session


# --- compiled stand-in answers (the student bundle has no reference) ---------------------------

def test_the_compiled_records_are_the_solutions_calls_on_every_case(catalogue, zygote):
    """Recorded again from the solution (and its allowed decompositions: the patch embedding on
    the convolution), the table is what `vitgrade compile` stored, hidden checks included; each
    record's answer is the reference's for its arguments."""
    import numpy as np

    from grader.checks import compiled
    from grader.checks.compile_specs import solution_and_decompositions
    from grader.checks.compile_stand_ins import record_stand_ins
    from grader.checks.course import reference_function
    from grader.checks.stand_ins import STAND_IN_TABLE

    exercise = next(e for e in catalogue if e.id == "vit-forward")
    record: dict = {}
    for source in solution_and_decompositions(SOLUTION):
        with StudentWorker(source, zygote=zygote) as worker:
            record_stand_ins(exercise, worker, record=record)
    assert "conv_patch_embed" in {name for calls in record.values() for name, _, _ in calls}
    stored = compiled.load(exercise.path)
    assert stored is not None, "exercises/compiled is stale: run `vitgrade compile`"
    assert set(record) == set(stored.tables[STAND_IN_TABLE])
    hidden = {c.name for c in exercise.checks if c.hidden}
    assert hidden and hidden <= {key.split("/")[0] for key in record}
    helpers = {name for calls in record.values() for name, _, _ in calls}
    assert {"embed_image", "encoder_block", "layer_norm", "patchify", "softmax"} <= helpers
    for key, calls in record.items():
        kept = stored.lookup(STAND_IN_TABLE, key)
        assert [name for name, _, _ in kept] == [name for name, _, _ in calls]
        for (name, args, (status, value)), (_, _, (_, kept_value)) in zip(calls, kept,
                                                                           strict=True):
            assert status == "ok" and np.allclose(kept_value, value)
            assert np.allclose(reference_function(name, exercise.folder)(*args), value)


def _stand_ins_on_a_case(catalogue, exercise_id: str, names):
    """StandIns for the first call check of the exercise, on its first case, answered from the
    compiled records -> (stand_ins, the solution's recorded calls on that case)."""
    from grader.checks import compiled
    from grader.checks.cases import CasePlans
    from grader.checks.kinds import CallCheck
    from grader.checks.stand_ins import StandIns, case_key, recorded_calls

    exercise = next(e for e in catalogue if e.id == exercise_id)
    check = next(c for c in exercise.checks if isinstance(c, CallCheck))
    recorded = recorded_calls(compiled.spec_file(exercise))
    assert recorded is not None, "exercises/compiled is stale: run `vitgrade compile`"
    first = CasePlans().cases(exercise, check)[0]
    stand_ins = StandIns(names, check, recorded)
    stand_ins.begin(check.call, [first.encoded])
    return stand_ins, recorded(case_key(check, check.call, first.encoded))


def _ask(stand_ins, name, args):
    from grader.worker.values import encode_call

    call = encode_call(args)
    return stand_ins.answer(name, {"call": json.loads(call.json)}, list(call.blobs), 0)


def test_a_stand_in_answers_the_solutions_own_call_within_the_checks_tolerance(catalogue):
    stand_ins, calls = _stand_ins_on_a_case(catalogue, "linear-patch-embed", ("patchify",))
    _, (image, P), _ = next(c for c in calls if c[0] == "patchify")
    for nudged in (image, image * (1 + 1e-12)):  # the last bits of a correct caller's floats
        header, blobs = _ask(stand_ins, "patchify", (nudged, P))
        assert header["status"] == "ok" and blobs
    assert not stand_ins.unavailable
    for other in ((image + 0.1, P), (image, P + 1), (image[:2], P), (image.tolist(), P)):
        header, blobs = _ask(stand_ins, "patchify", other)
        assert header["status"] == "unavailable" and not blobs
    assert "answers only the calls the course solution makes" in stand_ins.unavailable


def test_a_helper_the_solution_never_calls_on_that_check_is_never_answered(catalogue):
    """softmax's checks: the solution calls no helper, so no call of `self_attention`, however
    made, is answered (softmax computed through another function's stand-in)."""
    import numpy as np

    stand_ins, calls = _stand_ins_on_a_case(catalogue, "stable-softmax", ("self_attention",))
    assert calls == []
    header, _ = _ask(stand_ins, "self_attention", (np.zeros((3, 4)), {}, 1))
    assert header["status"] == "unavailable" and stand_ins.unavailable


def test_arguments_that_broadcast_are_compared_never_computed(catalogue):
    stand_ins, calls = _stand_ins_on_a_case(catalogue, "encoder-block", ("layer_norm",))
    x, gamma, beta = next(args for name, args, _ in calls if name == "layer_norm")
    wide = (x[..., :1][None], gamma.reshape(1, 1, 1, -1), beta)  # broadcasts to (1, T, d, d)
    header, _ = _ask(stand_ins, "layer_norm", wide)
    assert header["status"] == "unavailable"


# --- calls bound the student's way -------------------------------------------------------------

def test_a_stand_in_binds_a_call_through_the_students_own_signature():
    import inspect

    from grader.worker.stand_ins import bind

    def layer_norm(x, g, b, eps=1e-5):
        return x

    def softmax(x, axis=-1, temperature=1.0):
        return x

    def encoder_block(x, block, n_head, *, causal=False, **extra):
        return x

    def sig(f):
        return inspect.signature(f)

    assert bind(sig(layer_norm), 3, (1,), {"g": 2, "b": 3}) == [1, 2, 3]  # layer_norm(x, **ln_1)
    assert bind(sig(layer_norm), 3, (1, 2, 3, 1e-5), {}) == [1, 2, 3]  # eps at its default
    assert bind(sig(softmax), 1, ("s",), {"axis": -1, "temperature": 1.0}) == ["s"]
    assert bind(sig(encoder_block), 3, ("x", "p"), {"n_head": 4}) == ["x", "p", 4]
    assert bind(None, 2, ("image", 2), {}) == ["image", 2]  # a helper not written: by position
    for args, kwargs in [((1,), {"gamma": 2, "beta": 3}),  # not the names of the student's own
                         ((1, 2), {})]:
        with pytest.raises(TypeError):
            bind(sig(layer_norm), 3, args, kwargs)
    with pytest.raises(LookupError, match="temperature"):  # an extra keyword set: not the API's
        bind(sig(softmax), 1, ("s",), {"temperature": 2.0})
    with pytest.raises(LookupError, match="eps"):
        bind(sig(layer_norm), 3, (1, 2, 3), {"eps": 1e-3})
    with pytest.raises(LookupError, match="extra"):  # what **kwargs caught
        bind(sig(encoder_block), 3, ("x", "p", 4), {"dropout": 0.1})
    with pytest.raises(LookupError):
        bind(None, 2, ("image",), {"P": 2})


def test_a_stand_in_passes_on_the_apis_optional_parameters_as_the_call_sets_them():
    """`softmax(s.T, axis=0)`, an encoder block's `self_attention(..., causal=True)`: the API's
    optional parameters follow the ones it needs, as the call sets them (not as the student's
    own defaults are); those left at the API's default are dropped, as the course solution's
    recorded calls have them."""
    import inspect

    from grader.worker.stand_ins import bind

    def softmax(x, dim=-1, temperature=1.0):
        return x

    def layer_norm(x, g, b, eps=1e-5):
        return x

    def self_attention(x, p, heads, *, causal=True):  # its own default is not the API's
        return x

    sig = inspect.signature
    assert bind(sig(softmax), 1, ("s",), {"dim": 0}, options=(-1,)) == ["s", 0]
    assert bind(sig(softmax), 1, ("s", 0), {}, options=(-1,)) == ["s", 0]
    assert bind(sig(softmax), 1, ("s",), {"dim": -1}, options=(-1,)) == ["s"]
    assert bind(sig(layer_norm), 3, (1, 2, 3), {}, options=(1e-6,)) == [1, 2, 3]
    assert bind(sig(layer_norm), 3, (1, 2, 3), {"eps": 1e-3}, options=(1e-6,)) == [1, 2, 3, 1e-3]
    assert bind(sig(self_attention), 3, ("x", "p", 2), {}, options=(False,)) == ["x", "p", 2]
    assert bind(sig(self_attention), 3, ("x", "p", 2), {"causal": True},
                options=(False,)) == ["x", "p", 2, True]
    assert bind(None, 1, ("s", 0), {}, options=(-1,)) == ["s", 0]
    assert bind(None, 1, ("s", -1), {}, options=(-1,)) == ["s"]
    with pytest.raises(LookupError, match="temperature"):  # beyond the API's: still refused
        bind(sig(softmax), 1, ("s",), {"dim": 0, "temperature": 2.0}, options=(-1,))
    with pytest.raises(LookupError):
        bind(None, 1, ("s", 0, 1), {}, options=(-1,))



def test_a_stand_in_binds_through_the_signature_a_helper_has_now_not_the_one_it_had():
    """A helper whose defaults or code change between calls is bound by what it is at the call
    (a kept signature would bind by the old one)."""
    from grader.worker.stand_ins import bound

    namespace = {}
    exec("def layer_norm(x, g, b, eps=1e-5):\n    return x\n", namespace)
    helper = namespace["layer_norm"]

    def shown():
        with bound(namespace, {"layer_norm": [3, [1e-6]]}, None, 1, 0):
            return str(namespace["layer_norm"].__signature__)

    assert shown() == "(x, g, b, eps=1e-05)"
    assert shown() == "(x, g, b, eps=1e-05)"  # the kept one
    helper.__defaults__ = (0.5,)
    assert shown() == "(x, g, b, eps=0.5)"
    exec("def other(x, gamma, beta):\n    return x\n", namespace)
    helper.__code__ = namespace["other"].__code__
    assert shown() == "(x, gamma, beta=0.5)"  # its defaults are still the last parameters
    exec("def wrapped(a, b, c):\n    return a\n", namespace)
    helper.__wrapped__ = namespace["wrapped"]  # followed, as inspect.signature does
    assert shown() == "(a, b, c)"

STYLES = {  # a style -> (a buggy fixture written in it, its broken exercise, correct callers')
    "keyword names of the student's own helper": (
        "multi_patchify_encoder_keywords", "encoder-block", ("vit-forward", "linear-patch-embed")),
    "an extra keyword at its default": (
        "multi_picogpt_norms", "stable-softmax", ("multi-head-attention", "no-causal-mask")),
    "a ** dict of the student's own parameter names": (
        "multi_picogpt_norms", "layer-norm", ("encoder-block",)),
}


@pytest.mark.parametrize("style", STYLES, ids=list(STYLES))
def test_a_correct_caller_in_any_calling_style_keeps_its_points(tmp_path, catalogue, zygote,
                                                                 style):
    fixture, broken, callers = STYLES[style]
    path = tmp_path / "vit_exercises.py"
    path.write_text(submission_text(SUBMISSIONS / "buggy" / f"{fixture}.py"))
    results = graded(path, catalogue, zygote)
    assert results[broken].score < results[broken].max_score
    for caller in callers:
        kept = results[caller]
        assert kept.score == kept.max_score, [c.message for c in kept.checks if not c.passed]
        assert kept.stand_ins


def test_a_helper_captured_in_a_default_argument_or_a_closure_is_stood_in_too(
        tmp_path, catalogue, zygote):
    path = with_replaced(tmp_path, '''
        def layer_norm(x, gamma, beta, eps=1e-6):
            return x * gamma + beta  # not normalised


        def encoder_block(x, p, heads, _ln=layer_norm):
            x = x + self_attention(_ln(x, p["ln1_g"], p["ln1_b"]), p, heads)
            return x + gelu(_ln(x, p["ln2_g"], p["ln2_b"]) @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
        ''')
    closure = tmp_path / "closure.py"  # vit_forward made by a factory that holds layer_norm
    closure.write_text(path.read_text() + textwrap.dedent('''

        def _make_vit_forward(norm):
            def vit_forward(image, params):
                x = embed_image(image, params)
                for block in params["blocks"]:
                    x = encoder_block(x, block, params["heads"])
                x = norm(x, params["ln_g"], params["ln_b"])
                return x[0] @ params["W_head"] + params["b_head"]
            return vit_forward


        vit_forward = _make_vit_forward(layer_norm)
        '''))
    results = graded(closure, catalogue, zygote)
    assert results["layer-norm"].score < results["layer-norm"].max_score
    for caller in ("encoder-block", "vit-forward"):
        assert results[caller].score == results[caller].max_score, caller
        assert results[caller].stand_ins == ("layer_norm",)


# --- the feedback stays true ---------------------------------------------------------------------

OWN_CODE = "this failure is in `encoder_block`'s own code"  # the function's name, said


@pytest.mark.parametrize("call", [
    "layer_norm(x, gamma=p['ln1_g'], beta=p['ln1_b'])",  # names the student's helper lacks
    "layer_norm(x, p['ln1_g'], p['ln1_b'], center=False)",  # beyond the API's, set
], ids=["binding error", "extra keyword set"])
def test_a_stand_in_that_cannot_answer_never_says_the_failure_is_the_functions_own(
        tmp_path, catalogue, zygote, call):
    path = with_replaced(tmp_path, f'''
        def layer_norm(x, g, b, eps=1e-6, center=True):
            return x * g + b  # not normalised


        def encoder_block(x, p, heads):
            x = x + self_attention({call}, p, heads)
            h = layer_norm(x, p["ln2_g"], p["ln2_b"])
            return x + gelu(h @ p["W1"] + p["b1"]) @ p["W2"] + p["b2"]
        ''')
    block = graded(path, catalogue, zygote)["encoder-block"]
    failed = [c for c in block.checks if not c.passed]
    assert failed and not block.stand_ins
    for check in failed:
        assert OWN_CODE not in check.message
        assert "not graded again with correct helpers" in check.message


def test_only_a_regrade_around_answered_stand_ins_says_the_failure_is_the_functions_own(
        tmp_path, catalogue, zygote):
    path = with_replaced(tmp_path, '''
        def layer_norm(x, g, b, eps=1e-6):
            return x * g + b  # not normalised


        def encoder_block(x, p, heads):
            x = x + self_attention(layer_norm(x, p["ln1_g"], p["ln1_b"]), p, heads)
            return x + gelu(layer_norm(x, p["ln2_g"], p["ln2_b"]) @ p["W1"] + p["b1"]) @ p["W2"]
        ''')  # b2 forgotten: its own bug
    block = graded(path, catalogue, zygote)["encoder-block"]
    failed = [c for c in block.checks if not c.passed]
    assert failed and all(OWN_CODE in c.message and c.stand_ins == ("layer_norm",)
                          for c in failed)


def test_a_spec_without_compiled_stand_in_answers_says_so_and_grades_without(
        tmp_path, catalogue, zygote):
    """The exercises copied without their compiled folder: grading computes the cases with the
    reference, and says that the stand-ins' answers are not there."""
    import shutil

    from grader.checks.catalogue import load_exercises

    folder = tmp_path / "exercises"
    shutil.copytree(EXERCISES, folder, ignore=shutil.ignore_patterns("compiled"))
    bare, errors = load_exercises(folder)
    assert not errors
    results = graded(with_replaced(tmp_path, CHANNEL_FIRST.read_text()), bare, zygote)
    embed = results["linear-patch-embed"]
    assert embed.score < embed.max_score and not embed.stand_ins
    failed = [c for c in embed.checks if not c.passed]
    assert failed and all("stand-in answers are not compiled" in c.message for c in failed)


def test_the_root_line_counts_what_the_table_marks_and_the_student_view_no_hidden_checks():
    """Blind round 49 (b49_02, b49_09): "1 exercise depends on it (kernel-stride)" above a
    table whose token-count was `ok*`, its stand-in serving hidden checks only. The header
    lists every exercise the table marks; a platform's visible-only view says nothing of
    hidden checks."""
    from grader.checks.results import PASSED, CheckResult, ExerciseResult, GradeReport
    from grader.report.gradescope import gradescope_results
    from grader.report.parts import student_view
    from grader.report.terminal import report_lines

    def check(hidden):
        return CheckResult("c", 1, 1, PASSED, hidden=hidden, stand_ins=("patchify",))

    only_hidden = ExerciseResult("vit-forward", "t", "l", (check(True),))
    both = ExerciseResult("linear-patch-embed", "t", "l", (check(False), check(True)))
    report = GradeReport("s.py", (only_hidden, both))
    assert report.roots() == {"patchify": ["vit-forward", "linear-patch-embed"]}
    text = "\n".join(report_lines(report))
    assert "2 exercises depend on it (vit-forward, linear-patch-embed)" in text
    marked = [line for line in text.splitlines() if line.endswith("ok*")]
    assert len(marked) == 2
    assert student_view(report).roots() == {"patchify": ["linear-patch-embed"]}
    output = gradescope_results(report)["output"]
    assert "1 exercise depends on it (linear-patch-embed)" in output
    assert "vit-forward" not in output.split("submission:")[0]


def test_a_recorded_argument_matches_within_the_tolerance_with_its_infinities_and_nans():
    """A masked score is -inf in the student's call and the solution's alike; the other entries
    differ in their last bits from one machine's BLAS to another's."""
    how = Compare(mode="allclose", rtol=1e-7, atol=1e-9)
    recorded = np.array([[0.5, -np.inf], [np.nan, 1.0]])
    assert matches(recorded, recorded * (1 + 1e-12), how)
    assert not matches(recorded, np.array([[0.5, np.inf], [np.nan, 1.0]]), how)  # other sign
    assert not matches(recorded, np.array([[0.5, -np.inf], [0.0, 1.0]]), how)  # nan is not 0
    assert not matches(recorded, np.array([[0.5, -1e30], [np.nan, 1.0]]), how)
    assert not matches(recorded, np.array([[0.6, -np.inf], [np.nan, 1.0]]), how)
    assert not matches(recorded, recorded[:1], how)  # never broadcast


class CountingWorker:
    """A worker that counts the requests sent with stand-ins (regrades)."""

    def __init__(self, worker):
        self.worker, self.regrades = worker, 0

    def __getattr__(self, name):
        return getattr(self.worker, name)

    def call_many(self, name, calls, stand_ins=None, **kwargs):
        self.regrades += stand_ins is not None
        return self.worker.call_many(name, calls, stand_ins=stand_ins, **kwargs)


def test_a_function_not_written_yet_is_never_graded_again_around_its_helpers(catalogue, zygote):
    """Its own code raises NotImplementedError: no helper can make it return, so the template
    (every function a stub, every one broken) is graded once, with no stand-in."""
    with StudentWorker(TEMPLATE, zygote=zygote) as worker:
        counting = CountingWorker(worker)
        grading = SubmissionGrading(counting, catalogue=catalogue)
        results = [grading.exercise(e) for e in catalogue]
    questions = {c.name for e in catalogue for c in e.checks if not c.function}  # ANSWERS
    statuses = {c.status for r in results for c in r.checks if c.name not in questions}
    assert statuses == {"not_implemented"}
    assert counting.regrades == 0


def test_a_helpers_stub_fails_its_caller_which_is_graded_around_it(tmp_path, catalogue, zygote):
    """`patchify` not written yet: it is "not implemented", while the functions that call it
    failed with patchify's NotImplementedError and get their points around its stand-in; so does
    one that catches the stub's error and raises its own."""
    path = with_replaced(tmp_path, '''
        def patchify(image, P):
            raise NotImplementedError


        def linear_patch_embed(image, W_e, b_e, P):
            try:
                tokens = patchify(image, P)
            except NotImplementedError:
                raise NotImplementedError("patchify first") from None
            return tokens @ W_e + b_e
        ''')
    results = graded(path, catalogue, zygote)
    assert {c.status for c in results["patchify"].checks} == {"not_implemented"}
    for exercise in ("linear-patch-embed", "vit-forward"):
        result = results[exercise]
        assert result.score == result.max_score and result.stand_ins == ("patchify",), exercise


def _fake_check(name: str, function: str):
    from types import SimpleNamespace
    return SimpleNamespace(name=name, function=function, regradable=True, points=1.0,
                           hidden=False, visibility="visible", hint=None,
                           names_read=lambda: (function,), names_tested=lambda: (function,))


@pytest.mark.parametrize("recorded_answers_it", [True, False])
def test_a_trial_without_a_stand_in_is_kept_only_when_the_records_answer_it(recorded_answers_it):
    """The full grader and the student bundle name the same stand-ins: a regrade that passed
    with several is tried with each put back to the student's own, its stand-ins answered from
    the recorded answers only (the bundle has no reference to compute the rest). Here the trial
    without `a`'s stand-in passes; when it makes a call no one recorded, it is rejected (in both
    modes) and both stand-ins stay, else `a`'s is dropped."""
    from types import SimpleNamespace

    from grader.checks.dependencies import Dependencies
    from grader.checks.results import FAILED, PASSED, check_result

    checks = {f: _fake_check(f"check of {f}", f) for f in ("caller", "a", "b")}
    exercises = {f: SimpleNamespace(path=f, id=f"{f}-exercise", checks=[checks[f]])
                 for f in checks}
    trials: list = []

    def grade(exercise, check, stand_ins, recorded_only=False):
        if check.function != "caller":  # each helper wrong in its own code
            return check_result(check, FAILED, "wrong"), None, frozenset(), ""
        if not stand_ins:
            return check_result(check, FAILED, "wrong"), None, frozenset(), ""
        if set(stand_ins) == {"a", "b"}:
            return check_result(check, PASSED), None, frozenset(stand_ins), ""
        trials.append((stand_ins, recorded_only))
        unanswered = "" if recorded_answers_it or not recorded_only else "not recorded"
        return check_result(check, PASSED), None, frozenset(stand_ins), unanswered

    graded = [(exercises[f], checks[f]) for f in ("caller", "a", "b")]
    result = Dependencies(graded, grade).result(exercises["caller"], checks["caller"])
    assert result.passed and trials and all(recorded_only for _, recorded_only in trials)
    assert result.stand_ins == (("b",) if recorded_answers_it else ("a", "b"))
