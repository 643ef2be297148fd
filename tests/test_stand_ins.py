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

import pytest
from buggy_submissions import submission_text

from grader.checks import SubmissionGrading
from grader.worker import StudentWorker

from conftest import EXERCISES, SOLUTION, SUBMISSIONS

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
    assert all(c.passed_with_stand_ins for c in vit.checks)
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
    path, _ = channel_first
    run = grade_with(path)
    text = run.stdout.str()
    assert "fix `patchify` first" in text
    assert "99 / 109" in text


# --- compiled stand-in answers (the student bundle has no reference) ---------------------------

def test_the_compiled_stand_in_answers_are_what_the_solutions_calls_get(catalogue, zygote):
    import numpy as np

    from grader.checks import compiled
    from grader.checks.compile_stand_ins import record_stand_ins
    from grader.checks.stand_ins import STAND_IN_TABLE

    exercise = next(e for e in catalogue if e.id == "vit-forward")
    with StudentWorker(SOLUTION, zygote=zygote) as worker:
        record = record_stand_ins(exercise, worker)
    stored = compiled.load(exercise.path)
    assert stored is not None, "exercises/compiled is stale: run `vitgrade compile`"
    assert len(record) == len(stored.tables[STAND_IN_TABLE]) >= 10
    for digest, (status, value) in record.items():
        assert status == "ok"
        assert np.array_equal(stored.lookup(STAND_IN_TABLE, digest)[1], value)


def test_a_call_the_solution_never_made_is_unavailable_without_the_reference(catalogue):
    import functools

    import numpy as np

    from grader.checks.stand_ins import StandIns, compiled_answer
    from grader.worker.values import encode_call

    exercise = next(e for e in catalogue if e.id == "linear-patch-embed")
    stand_ins = StandIns(("patchify",), compute=functools.partial(compiled_answer, exercise.path))
    call = encode_call((np.ones((4, 4, 3)), 2))
    header, blobs = stand_ins.answer("patchify", json.loads(call.json), list(call.blobs))
    assert header["status"] == "unavailable" and stand_ins.unavailable
    assert not blobs


def test_the_root_line_says_nothing_of_hidden_checks():
    from grader.checks.results import PASSED, CheckResult, ExerciseResult, GradeReport

    def check(hidden):
        return CheckResult("c", 1, 1, PASSED, hidden=hidden, stand_ins=("patchify",))

    only_hidden = ExerciseResult("vit-forward", "t", "l", (check(True),))
    both = ExerciseResult("linear-patch-embed", "t", "l", (check(False), check(True)))
    report = GradeReport("s.py", (only_hidden, both))
    assert report.roots() == {"patchify": ["linear-patch-embed"]}
