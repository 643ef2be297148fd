"""The pytest plugin, driven through pytester: what a student and an autograder see."""
from __future__ import annotations

import json
import textwrap

from conftest import EXERCISES, SOLUTION, TEMPLATE

COUNTING_ONLY = textwrap.dedent("""\
    id: counting
    title: Count patches
    lecture: Practice 1
    uses: [num_patches]
    checks:
      - name: lecture sizes
        points: 2
        call: num_patches
        cases:
          - args: [224, 224, 16]
            expect: 196
      - name: random sizes
        hidden: true
        call: num_patches
        generate: {generator: tiling_sizes, count: 5, seed: 1}
    """)


def exercises_dir(pytester, **specs):
    folder = pytester.mkdir("specs")
    for name, text in specs.items():
        (folder / f"{name}.yaml").write_text(text)
    return folder


def test_solution_gets_full_marks(grade_with):
    result = grade_with(SOLUTION)
    assert result.ret == 0
    result.stdout.fnmatch_lines(["*vit-grader*", "total*(100%)"])
    total = [line for line in result.outlines if line.startswith("total")][0]
    got, _, of = total.split()[1:4]
    assert got == of


def test_template_scores_zero_with_one_line_per_exercise(grade_with):
    result = grade_with(TEMPLATE)
    assert result.ret == 1
    result.stdout.fnmatch_lines(["total*0 / *(0%)"])
    not_implemented = [line for line in result.outlines
                       if line.endswith("  not implemented yet") and not line.startswith(" ")]
    assert len(not_implemented) == len(list(EXERCISES.glob("*.yaml")))
    assert "Traceback" not in result.stdout.str()


def test_without_student_the_plugin_stays_out_of_the_way(pytester):
    pytester.makepyfile(test_plain="def test_one():\n    assert 1 + 1 == 2\n")
    pytester.path.joinpath("exercises").mkdir()
    pytester.path.joinpath("exercises", "x.yaml").write_text(COUNTING_ONLY)
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    assert "submission:" not in result.stdout.str()


def test_wrong_answer_shows_call_expected_got_and_hint(pytester, grade_with):
    student = pytester.makepyfile(
        student="def num_patches(H, W, P):\n    return (H - P + 1) * (W - P + 1)\n")
    result = grade_with(student, "--feedback")
    result.stdout.fnmatch_lines([
        "*num_patches(H=4, W=4, P=2)*",
        "*expected: 4 (int)*",
        "*got:      9 (int)*",
        "*hint: You counted overlapping stride-1 windows*",
    ])
    assert "grader/checks" not in result.stdout.str()


def test_student_exception_shows_the_students_own_line(pytester, grade_with):
    student = pytester.makepyfile(
        student="def num_patches(H, W, P):\n    x = 1\n    return H // P * W // P / 0\n")
    result = grade_with(student, "--feedback",
                        exercises=exercises_dir(pytester, counting=COUNTING_ONLY))
    result.stdout.fnmatch_lines(["*ZeroDivisionError*",
                                 '*File "student.py", line 3, in num_patches*'])
    assert "Traceback" not in result.stdout.str()


def test_hidden_case_failure_does_not_show_its_inputs(pytester, grade_with):
    student = pytester.makepyfile(student=textwrap.dedent("""\
        def num_patches(H, W, P):
            if (H, W, P) == (224, 224, 16):
                return 196
            raise ValueError(f"leak {H} {W} {P}")
        """))
    result = grade_with(student, "--feedback",
                        exercises=exercises_dir(pytester, counting=COUNTING_ONLY))
    text = result.stdout.str()
    assert "failed on a hidden case" in text and "leak" not in text
    result.stdout.fnmatch_lines(["counting * 2 / 3 *"])


def test_a_broken_spec_is_reported_and_the_others_are_graded(pytester, grade_with):
    broken = (COUNTING_ONLY.replace("id: counting", "id: broken")
              .replace("    points: 2", "    pionts: 2"))
    folder = exercises_dir(pytester, counting=COUNTING_ONLY, broken=broken)
    result = grade_with(SOLUTION, exercises=folder)
    assert ("broken.yaml:7: unknown key 'pionts' in checks[0]; did you mean 'points'?"
            in result.stdout.str())
    result.stdout.fnmatch_lines(["counting * 3 / 3 *ok"])


def test_json_results_match_the_terminal_scores(pytester, grade_with):
    out = pytester.path / "results.json"
    student = pytester.makepyfile(
        student="def num_patches(H, W, P):\n    return (H // P) * (W // P)\n")
    grade_with(student, "--json", str(out),
               exercises=exercises_dir(pytester, counting=COUNTING_ONLY))
    data = json.loads(out.read_text())
    assert (data["score"], data["max_score"]) == (3, 3)
    assert [t["name"].split(":")[0] for t in data["tests"]] == [
        "counting", "counting (hidden cases)"]
    assert {t["visibility"] for t in data["tests"]} == {"visible", "after_published"}
    for test in data["tests"]:
        assert {"name", "score", "max_score", "output", "visibility", "status"} <= set(test)


def test_missing_submission_still_writes_results(pytester, grade_with):
    out = pytester.path / "results.json"
    result = grade_with(pytester.path / "nope.py", "--json", str(out),
                        exercises=exercises_dir(pytester, counting=COUNTING_ONLY))
    data = json.loads(out.read_text())
    assert data["score"] == 0 and data["max_score"] == 3
    assert "nope.py" in result.stdout.str()
    assert "Traceback" not in result.stdout.str()


def test_visible_only_skips_hidden_checks(pytester, grade_with):
    out = pytester.path / "results.json"
    grade_with(SOLUTION, "--visible-only", "--json", str(out),
               exercises=exercises_dir(pytester, counting=COUNTING_ONLY))
    data = json.loads(out.read_text())
    assert data["max_score"] == 2 and [t["visibility"] for t in data["tests"]] == ["visible"]


def test_bad_call_timeout_is_a_usage_error(grade_with):
    result = grade_with(SOLUTION, "--call-timeout", "soon")
    assert result.ret == 4
    result.stderr.fnmatch_lines(
        ["*--call-timeout must be a positive number of seconds, not 'soon'*"])
