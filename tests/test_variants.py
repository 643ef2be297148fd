"""Per-student variants (grader/checks/variants.py, docs/spec.md "Variants"): the variant space,
which variant an id grades, the shipped exercises graded per id through the Driver, validation
at file:line, and the course secret kept from student code and the student bundle."""
from __future__ import annotations

import json
import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from grader.checks import variants
from grader.checks.catalogue import load_exercise, spec_problems, variant_exercise
from grader.driver import Driver
from grader.settings import resolve_settings

from conftest import EXERCISES, ROOT, SOLUTION

SECRET = "test-course-secret-0123456789abcdef"
VARIED = ("patch-count", "token-count", "flatten-length", "attention-cost")


@pytest.fixture
def driver(monkeypatch):
    monkeypatch.setenv(variants.SECRET_ENV, SECRET)
    made = Driver(resolve_settings({"exercises": str(EXERCISES)}.get, ROOT, {}))
    yield made
    made.close()


def grade(driver, submission: Path, student_id: str | None):
    exercises = [e for e in driver.catalogue.exercises if e.id in VARIED]
    return driver.grade(submission, exercises, student_id=student_id)


def chosen(driver, student_id: str) -> dict:
    return {e.id: e for e in driver.variants(student_id)[0]}


def planned_args(driver, exercise) -> dict:
    """check name -> the args of each of its cases, as this variant grades them."""
    return {c.name: [p.args for p in driver.plans.cases(exercise, c)]
            for c in exercise.checks if c.function and c.regradable}


def test_the_space_is_the_product_in_a_fixed_order_with_rules_over_earlier_parameters():
    data = {"variants": {"side": [224, 384], "patch": {"divisors_of": "side",
                                                      "among": [14, 16, 32]}, "c": [1, 3]}}
    space = variants.space(data, {}, "x.yaml")
    assert space[:3] == [{"side": 224, "patch": 14, "c": 1}, {"side": 224, "patch": 14, "c": 3},
                         {"side": 224, "patch": 16, "c": 1}]
    assert len(space) == 3 * 2 + 2 * 2 and all(v["side"] % v["patch"] == 0 for v in space)


def test_a_variant_is_a_pure_function_of_secret_exercise_and_id():
    index = variants.variant_index
    assert index(b"s", "token-count", "alice", 10) == index(b"s", "token-count", "alice", 10)
    spread = {index(b"s", "token-count", f"student{i}", 10) for i in range(200)}
    assert spread == set(range(10))
    others = [index(b"t", "token-count", f"student{i}", 10) for i in range(50)]
    assert others != [index(b"s", "token-count", f"student{i}", 10) for i in range(50)]


def test_the_shipped_exercises_declare_variants_their_questions_show():
    for name in VARIED:
        exercise = load_exercise(EXERCISES / f"{name}.yaml")
        assert 2 <= len(exercise.variants) <= variants.MAX_VARIANTS, name
        assert "{" not in variant_exercise(exercise, 1).question.replace("{CLS}", ""), name
    tokens = load_exercise(EXERCISES / "token-count.yaml")
    values = tokens.variants[3]
    assert f"{values['side']} x {values['side']} image, patch {values['patch']}" in " ".join(
        variant_exercise(tokens, 3).question.split())


def test_the_solution_scores_full_marks_for_any_id(driver):
    ids = [f"{random.randrange(10**8)}@example.edu" for _ in range(50)]
    seen = set()
    for student_id in ids:
        outcome = grade(driver, SOLUTION, student_id)
        report = outcome.report
        assert report.score == report.max_score > 0, (student_id, [
            c.message for e in report.exercises for c in e.checks if c.score < c.points])
        assert not [n for n in report.notes if "shared version" in n]
        seen |= {(e.id, e.variant) for e in report.exercises}
    assert len(seen) > 2 * len(VARIED)  # many variants were graded


def test_two_ids_get_other_numbers_and_hidden_inputs_and_one_id_always_the_same(driver):
    alice, again = chosen(driver, "alice"), chosen(driver, "alice")
    assert {k: e.variant for k, e in alice.items()} == {k: e.variant for k, e in again.items()}
    for name in VARIED:
        other = next(chosen(driver, f"s{i}")[name] for i in range(100)
                     if chosen(driver, f"s{i}")[name].variant != alice[name].variant)
        mine, theirs = planned_args(driver, alice[name]), planned_args(driver, other)
        assert mine != theirs, name
        hidden = [c.name for c in alice[name].checks if c.hidden and c.name in mine]
        assert all(mine[h] != theirs[h] for h in hidden), name
        assert alice[name].question != other.question, name


def test_variants_are_graded_from_the_compiled_data(driver):
    exercise = chosen(driver, "bob")["token-count"]
    assert exercise.variant
    for check in exercise.checks:
        if check.function:
            assert all(p.from_compiled for p in driver.plans.cases(exercise, check))


def test_another_variants_hard_coded_answers_lose_their_points(driver, tmp_path):
    """num_tokens as a lookup table of every case of one student's variant: full marks for that
    student, points lost for one with another variant."""
    owner = chosen(driver, "carol")["token-count"]
    copied = lookup_table_submission(driver, "carol", tmp_path)
    assert token_score(grade(driver, copied, "carol")) == owner.points
    other = next(f"s{i}" for i in range(100)
                 if chosen(driver, f"s{i}")["token-count"].variant != owner.variant)
    assert token_score(grade(driver, copied, other)) < owner.points


def token_score(outcome) -> float:
    return next(e.score for e in outcome.report.exercises if e.id == "token-count")


def test_without_an_id_or_a_secret_the_shared_version_is_graded_and_said_in_one_line(
        driver, monkeypatch):
    outcome = grade(driver, SOLUTION, None)
    assert {e.variant for e in outcome.report.exercises} == {None}  # not a chosen one
    assert [n for n in outcome.report.notes if "shared version" in n] == [
        "exercises with each student's own numbers were graded with the shared version "
        "(variant 0), the one everyone gets: no student id was given (`--student-id ID` grades "
        "your own)"]
    driver.secret = None
    assert grade(driver, SOLUTION, "dave").report.notes[-1].endswith("(no course secret)")


def write_spec(folder: Path, text: str) -> Path:
    path = folder / "v.yaml"
    path.write_text(text)
    return path


SPEC = """id: v
title: t
lecture: Practice 1
uses: [num_patches]
variants:
  side: [224, 384]
  patch: {PATCH}
question: "How many patches for {side} x {side}, P = {patch}?"
checks:
  - name: own
    call: num_patches
    cases:
      - args: ["{side}", "{SIDE}", "{patch}"]
"""


@pytest.mark.parametrize("patch, side, line, message", [
    ("[8, 14, 16]", "side", 13, "variant 4 (side=384, patch=14): check 'own', case 1: the "
                                "reference raises ValueError; every variant must be solvable"),
    ("{divisors_of: side, among: [8, 14, 16]}", "sid", 13, "'{sid}': no parameter 'sid'"),
    ("{divisors_of: size, among: [8, 14]}", "side", 7, "'size' is not a parameter declared"),
    ("[" + ", ".join(map(str, range(1, 40))) + "]", "side", 5, "at most 64"),
])
def test_validate_names_an_unsolvable_or_broken_variant_at_its_line(tmp_path, patch, side,
                                                                     line, message):
    path = write_spec(tmp_path, SPEC.replace("{PATCH}", patch).replace("{SIDE}", "{" + side + "}"))
    _, problems = spec_problems(path, build_inputs=True)
    assert len(problems) == 1 and problems[0].line == line and message in problems[0].message, \
        [str(p) for p in problems]


def test_a_spec_without_variants_loads_as_before():
    exercise = load_exercise(EXERCISES / "patchify.yaml")
    assert exercise.variants == () and variant_exercise(exercise, 3) is exercise


def test_compile_creates_the_course_secret_readable_by_its_owner_only(tmp_path):
    from grader.checks.compile_specs import compile_folder

    shutil.copy(EXERCISES / "flatten-length.yaml", tmp_path)
    compile_folder(tmp_path)
    secret = tmp_path / variants.SECRET_FILE
    assert secret.stat().st_mode & 0o777 == 0o600 and len(secret.read_text().strip()) == 64
    before = secret.read_text()
    compile_folder(tmp_path)
    assert secret.read_text() == before


PLANTED = "a-file-the-worker-may-read"
HUNT = '''
import os


def patch_dim(P, C=3):
    found, walked = [os.environ.get("VITGRADE_COURSE_SECRET", "")], 0
    for root, dirs, files in os.walk("/"):  # the whole tree this code sees, wherever CI runs
        skip = ("proc", "sys", "dev", "usr") if root == "/" else (".venv", ".git", "node_modules")
        dirs[:] = [d for d in dirs if d not in skip][:200 if walked < 20000 else 0]
        walked += 1
        for name in files:
            if name.endswith("course-secret"):
                try:
                    found.append(open(os.path.join(root, name), errors="replace").read(200))
                except OSError:
                    pass
    for pid in os.listdir("/proc") if os.path.isdir("/proc") else ():
        try:
            environ = open(f"/proc/{pid}/environ", "rb").read().decode(errors="replace")
        except OSError:
            continue
        found += [v for v in environ.split("\\0") if v.startswith("VITGRADE_COURSE_SECRET")]
    raise RuntimeError(f"FOUND in {walked} folders: " + " | ".join(found))
'''


def hunt(tmp_path: Path, secret_in: str, env: dict) -> str:
    """What grading HUNT with the course secret in the exercises folder's file (`secret_in`:
    "file") or in the environment puts in the results and on the terminal."""
    folder = tmp_path / "exercises"
    if not folder.exists():
        shutil.copytree(EXERCISES, folder, ignore=shutil.ignore_patterns(variants.SECRET_FILE))
    (folder / variants.SECRET_FILE).unlink(missing_ok=True)
    if secret_in == "file":
        (folder / variants.SECRET_FILE).write_text(SECRET + "\n")
    submission = tmp_path / "student" / "vit_exercises.py"
    submission.parent.mkdir(exist_ok=True)
    submission.write_text(HUNT)
    (submission.parent / "planted.course-secret").write_text(PLANTED)  # its own: it may read it
    out = tmp_path / "results.json"
    done = subprocess.run(
        [sys.executable, "-m", "grader.cli", "grade", str(submission), "--exercises", str(folder),
         "--json", str(out), "--student-id", "eve", "--call-timeout", "20",
         "--submission-timeout", "60"], cwd=ROOT, capture_output=True, text=True, timeout=180,
        env={k: v for k, v in {**os.environ, **env}.items() if k != variants.SECRET_ENV or
             secret_in == "env"})
    return out.read_text() + done.stdout + done.stderr


@pytest.mark.skipif(os.geteuid() != 0, reason="hiding the specs from student code needs root")
@pytest.mark.parametrize("secret_in", ["file", "env"])
def test_student_code_cannot_read_the_course_secret(tmp_path, secret_in):
    env = {variants.SECRET_ENV: SECRET} if secret_in == "env" else {}
    shown = hunt(tmp_path, secret_in, env)
    walked = re.search(r"FOUND in (\d+) folders", shown)
    assert walked and int(walked[1]) > 10, shown[-3000:]  # the hunt ran
    assert PLANTED in shown, shown[-3000:]  # and finds a secret where student code can read one
    assert SECRET not in shown


def test_the_student_bundle_holds_neither_the_secret_nor_another_variants_values(tmp_path):
    folder = tmp_path / "exercises"
    folder.mkdir()
    for name in VARIED:
        shutil.copy(EXERCISES / f"{name}.yaml", folder)
    (folder / variants.SECRET_FILE).write_text(SECRET + "\n")
    out = tmp_path / "bundle"
    done = subprocess.run([sys.executable, "-m", "grader.cli", "dist", str(out), "--exercises",
                           str(folder), "--template", str(ROOT / "student_template")],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    files = [p for p in out.rglob("*") if p.is_file()]
    assert not [p for p in files if p.name == variants.SECRET_FILE]
    assert not [p for p in files if SECRET.encode() in p.read_bytes()]
    shipped = [p for p in files if p.suffix == ".json" and p.parent.name.endswith("compiled")]
    assert shipped
    for index in shipped:
        data = json.loads(index.read_text())
        keys = [k for table in data["tables"].values() for k in table]
        assert not [k for k in keys if "@" in k.split("/")[0]], index  # variant 0 only
    kept = json.loads((out / "exercises" / "compiled" / "catalogue.parsed").read_text())
    assert kept["specs"] and all("variants" not in entry["data"]
                                 for entry in kept["specs"].values())  # the parsed specs
    for spec in [p for p in files if p.suffix == ".yaml"]:
        text = spec.read_text()  # no variant's numbers: parameters only named in the question
        assert "variants:" not in text and '"{' not in text and "'{" not in text, spec
    assert "`side` x `side` image" in (out / "exercises" / "token-count.yaml").read_text()


def test_the_question_sheet_names_the_parameters_and_shows_no_variants_answer():
    sheet = (ROOT / "docs" / "exercises.md").read_text()
    assert "a `side` x `side` image, patch `patch`" in " ".join(sheet.split())
    tokens = load_exercise(EXERCISES / "token-count.yaml")
    assert ">>> num_tokens(224, 224, 8)" not in sheet  # variant 0's own case
    assert tokens.variants[0] == {"side": 224, "patch": 8}


def test_grade_all_grades_each_students_variant_and_grades_csv_records_it(tmp_path):
    import csv

    specs = tmp_path / "exercises"
    specs.mkdir()
    for name in ("patch-count", "token-count"):
        shutil.copy(EXERCISES / f"{name}.yaml", specs)
    (specs / variants.SECRET_FILE).write_text(SECRET + "\n")
    (tmp_path / "class").mkdir()
    for student in ("alice", "bob", "carol"):
        shutil.copy(SOLUTION, tmp_path / "class" / f"{student}.py")
    done = subprocess.run([sys.executable, "-m", "grader.cli", "grade-all", str(tmp_path / "class"),
                           "--out", str(tmp_path / "out"), "--exercises", str(specs),
                           "--no-progress"], cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={k: v for k, v in os.environ.items() if k != variants.SECRET_ENV})
    assert done.returncode == 0, done.stdout + done.stderr
    rows = list(csv.DictReader((tmp_path / "out" / "grades.csv").open()))
    assert len(rows) == 3
    for row in rows:
        count = {n: len(load_exercise(specs / f"{n}.yaml").variants)
                 for n in ("patch-count", "token-count")}
        want = ", ".join(f"{n} {variants.variant_index(SECRET.encode(), n, row['Student'], c)}"
                         for n, c in count.items())
        most = sum(load_exercise(specs / f"{n}.yaml").points for n in count)
        assert row["Section"].endswith(f" (variants: {want})"), row
        assert float(row["Final Points"]) == most, row
    html = (tmp_path / "out" / "report.html").read_text()  # the pass rate of each variant
    assert "full marks by variant" in html and re.search(r"variant \d+: [123]/[123]", html)


def test_gradescope_gives_the_submitters_id_and_its_zip_the_course_secret(tmp_path):
    from grader.lms.gradescope_autograder import gradescope_student_id
    from grader.lms.gradescope_zip import build_gradescope_zip

    (tmp_path / "submission_metadata.json").write_text(json.dumps(
        {"users": [{"email": "ada@example.edu", "id": 1234, "name": "Ada"}]}))
    assert gradescope_student_id(tmp_path) == "1234"
    (tmp_path / "submission_metadata.json").write_text(json.dumps(
        {"users": [{"email": "ada@example.edu"}]}))
    assert gradescope_student_id(tmp_path) == "ada@example.edu"
    assert gradescope_student_id(tmp_path / "nowhere") is None
    specs = tmp_path / "exercises"
    specs.mkdir()
    shutil.copy(EXERCISES / "token-count.yaml", specs)
    (specs / variants.SECRET_FILE).write_text(SECRET + "\n")
    names = build_gradescope_zip(tmp_path / "autograder.zip", specs)
    assert [n for n in names if n.endswith(f"exercises/{variants.SECRET_FILE}")]


def lookup_table_submission(driver, owner_id: str, folder: Path) -> Path:
    """The solution with num_tokens a lookup table of every token-count case of `owner_id`'s
    variant: full marks for them only."""
    owner = chosen(driver, owner_id)["token-count"]
    table = {}
    for check in owner.checks:
        for p in driver.plans.cases(owner, check) if check.function else ():
            expected, raises = p.expectation()
            key = repr((tuple(int(a) for a in p.args), bool(p.kwargs.get("cls_token", True))))
            table[key] = "raise" if raises else int(expected)
    folder.mkdir(parents=True, exist_ok=True)
    copied = folder / "vit_exercises.py"
    copied.write_text(SOLUTION.read_text() + f"\n\nTABLE = {table!r}\n" + '''
def num_tokens(H, W, P, cls_token=True):
    found = TABLE.get(repr(((int(H), int(W), int(P)), bool(cls_token))), 0)
    if found == "raise":
        raise ValueError("does not tile")
    return found
''')
    return copied


def test_one_id_grades_the_same_variant_through_every_entry_point(driver, tmp_path):
    """`vitgrade grade --student-id`, VITGRADE_STUDENT_ID, `pytest --student-id` and the
    Gradescope wrapper (submission_metadata.json) grade carol's variant: her table passes."""
    submission = lookup_table_submission(driver, "carol", tmp_path / "carol")
    other = next(f"s{i}" for i in range(100) if chosen(driver, f"s{i}")["token-count"].variant
                 != chosen(driver, "carol")["token-count"].variant)
    env = {**os.environ, variants.SECRET_ENV: SECRET, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    env.pop("VITGRADE_STUDENT_ID", None)

    def token_points(results: Path) -> float:
        tests = json.loads(results.read_text())["tests"]
        return sum(t["score"] for t in tests if t["name"].startswith("token-count"))

    most = chosen(driver, "carol")["token-count"].points
    for student_id, want in (("carol", most), (other, None)):
        out = tmp_path / f"{student_id}.json"
        ways = {
            "grade": ["-m", "grader.cli", "grade", str(submission), "--student-id", student_id],
            "env": ["-m", "grader.cli", "grade", str(submission)],
            "pytest": ["-m", "pytest", "-p", "grader.plugin", "-p", "no:cacheprovider", "-q",
                       "--student", str(submission), "--student-id", student_id]}
        for way, command in ways.items():
            extra = {"VITGRADE_STUDENT_ID": student_id} if way == "env" else {}
            subprocess.run([sys.executable, *command, "--exercises", str(EXERCISES), "--json",
                            str(out)], cwd=tmp_path, env={**env, **extra}, capture_output=True,
                           timeout=300)
            got = token_points(out)
            assert got == want if want else got < most, (way, student_id)
        root = tmp_path / "gradescope" / student_id
        shutil.copytree(submission.parent, root / "submission")
        (root / "submission_metadata.json").write_text(json.dumps({"users": [{"id": student_id}]}))
        subprocess.run([sys.executable, "-m", "grader.lms.gradescope_autograder", "--root",
                        str(root), "--exercises", str(EXERCISES)], cwd=tmp_path, env=env,
                       capture_output=True, timeout=300)
        got = token_points(root / "results" / "results.json")
        assert got == want if want else got < most, ("gradescope", student_id)


def test_buggy_submissions_are_caught_and_named_in_every_variant(driver, tmp_path):
    """The buggy fixtures that use a function of an exercise with variants, two of each kind
    (of_each_kind; test_catalogue grades every one), each graded as a student of its own (a
    different one for each fixture, so that every variant of each varied exercise grades some of
    them): the exercises its EXPECT names lose points and name its misconception, the exercises
    it does not touch keep full marks (stand-ins answer from every variant's record)."""
    from buggy_submissions import (
        BUGGY,
        affected_exercises,
        build_submission,
        fixture_metadata,
        of_each_kind,
    )

    catalogue = driver.catalogue.exercises
    uses = {name for e in catalogue if e.id in VARIED for name in e.uses}
    chosen_fixtures = of_each_kind([s for s in BUGGY if set(fixture_metadata(s)) & set(VARIED)
                                    or affected_exercises(s, catalogue) & set(VARIED)])
    assert len(chosen_fixtures) >= 5, uses
    students = [f"student-{number}" for number in range(len(chosen_fixtures))]
    for exercise in catalogue:
        if exercise.id in VARIED:  # every variant is someone's
            assert len({repr(chosen(driver, s)[exercise.id].variant) for s in students}) \
                == len(exercise.variants), exercise.id
    for snippet, student_id in zip(chosen_fixtures, students, strict=True):
        submission = build_submission(snippet, tmp_path)
        # the exercises a variant or this fixture's code can change: the rest run none of its
        # functions and no function with variants (test_catalogue grades them all, once)
        touched = affected_exercises(snippet, catalogue) | set(fixture_metadata(snippet))
        graded = [e for e in catalogue if e.id in VARIED or e.id in touched or set(e.uses) & uses]
        results = {e.id: e for e in driver.grade(submission, graded, student_id=student_id)
                   .report.exercises}
        for exercise_id, misconception in fixture_metadata(snippet).items():
            result = results[exercise_id]
            assert result.score < result.max_score, (snippet.stem, student_id, exercise_id)
            assert [c for c in result.checks if c.misconception == misconception], \
                (snippet.stem, student_id, exercise_id, [c.message for c in result.checks])
        affected = affected_exercises(snippet, catalogue)
        assert {i for i, r in results.items() if r.score < r.max_score} <= affected, \
            (snippet.stem, student_id)


def test_check_in_a_notebook_grades_the_students_own_variant(driver, tmp_path):
    """check(student_id=...) (or VITGRADE_STUDENT_ID) grades that student's visible cases: carol's
    lookup table passes her token-count, not another student's."""
    from test_check import namespace_from

    from grader.notebook_check import grade_namespace

    namespace = namespace_from(tmp_path, lookup_table_submission(
        driver, "carol", tmp_path / "carol").read_text())
    other = next(f"s{i}" for i in range(100) if chosen(driver, f"s{i}")["token-count"].variant
                 != chosen(driver, "carol")["token-count"].variant)

    def token_score(student_id):
        report = grade_namespace(namespace, "token-count", exercises=EXERCISES,
                                 student_id=student_id)
        (result,) = report.exercises
        return result.score, result.max_score

    score, most = token_score("carol")
    assert score == most
    score, most = token_score(other)
    assert score < most


def test_render_writes_each_students_own_sheet(driver, tmp_path, monkeypatch):
    """`vitgrade render --student-id ID`: the student's own numbers (the visible cases their
    variant grades), the same for the same id, others for another id; never another's cases."""
    from grader.cli import main

    monkeypatch.chdir(tmp_path)
    sheets = {}
    for student_id in ("alice", "bob", "alice"):
        out = tmp_path / f"{student_id}.md"
        assert main(["render", "--exercises", str(EXERCISES), "--student-id", student_id,
                     "--out", str(out)]) == 0
        text = out.read_text()
        assert sheets.setdefault(student_id, text) == text
    own = chosen(driver, "alice")["patch-count"]
    visible = [c for c in own.checks if c.function and not c.hidden]
    calls = [p.args for c in visible for p in driver.plans.cases(own, c)]
    assert calls and all(f"num_patches({', '.join(map(str, args))})" in sheets["alice"]
                         for args in calls)
    assert sheets["alice"] != sheets["bob"]
    assert "{side}" not in sheets["alice"] and "`alice`" in sheets["alice"]


def test_render_for_a_student_needs_the_course_secret(tmp_path, monkeypatch, capsys):
    from grader.cli import main

    monkeypatch.delenv(variants.SECRET_ENV, raising=False)
    specs = tmp_path / "exercises"
    specs.mkdir()
    shutil.copy(EXERCISES / "patch-count.yaml", specs)
    assert main(["render", "--exercises", str(specs), "--student-id", "alice"]) == 1
    assert "no course secret" in capsys.readouterr().err


def test_grade_all_takes_the_id_of_a_rostered_entry_for_its_variants(driver, tmp_path):
    """--roster: an entry named for another variant is carol's, so it grades hers: her table
    passes there."""
    from test_batch import csv_rows

    folder = tmp_path / "class"
    table = lookup_table_submission(driver, "carol", tmp_path / "carol")
    folder.mkdir()
    entry = next(f"entry_{i}" for i in range(100) if chosen(driver, f"entry_{i}")[
        "token-count"].variant != chosen(driver, "carol")["token-count"].variant)
    shutil.copy(table, folder / f"{entry}.py")  # its own name would grade another variant
    roster = tmp_path / "roster.csv"
    roster.write_text(f"entry,id\n{entry}.py,carol\n")
    env = {**os.environ, variants.SECRET_ENV: SECRET}
    done = subprocess.run([sys.executable, "-m", "grader.cli", "grade-all", str(folder), "--out",
                           str(tmp_path / "out"), "--exercises", str(EXERCISES), "--roster",
                           str(roster), "--no-progress"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert set(csv_rows(tmp_path / "out")) == {"carol"}
    result = json.loads((tmp_path / "out" / "results" / "carol.json").read_text())
    (tokens,) = [e for e in result["report"]["exercises"] if e["id"] == "token-count"]
    assert all(c["score"] == c["points"] for c in tokens["checks"])


def test_prairielearn_grades_the_variant_of_its_variant_seed(tmp_path, monkeypatch):
    """--prairielearn without --student-id: the id is PrairieLearn's variant_seed from
    /grade/data/data.json; without that file, the shared version."""
    from grader.lms import prairielearn_data

    data = tmp_path / "data.json"
    data.write_text(json.dumps({"params": {}, "submitted_answers": {}, "variant_seed": 4711}))
    monkeypatch.setattr(prairielearn_data, "DATA_JSON", data)
    given = {"exercises": str(EXERCISES), "prairielearn": "results.json"}
    assert resolve_settings(given.get, tmp_path, {}).student_id == "pl-4711"
    explicit = {**given, "student_id": "carol"}
    assert resolve_settings(explicit.get, tmp_path, {}).student_id == "carol"
    data.unlink()
    assert resolve_settings(given.get, tmp_path, {}).student_id is None
    assert resolve_settings({"exercises": str(EXERCISES)}.get, tmp_path, {}).student_id is None


def test_a_students_own_bundle_holds_their_variants_visible_cases_only(tmp_path, monkeypatch):
    """`vitgrade dist --student-id alice`: her own visible cases, no `variants:`, no secret;
    without the secret it says why."""
    folder = tmp_path / "exercises"
    folder.mkdir()
    shutil.copy(EXERCISES / "patch-count.yaml", folder)
    (folder / variants.SECRET_FILE).write_text(SECRET + "\n")
    monkeypatch.setenv(variants.SECRET_ENV, SECRET)
    own = load_exercise(folder / "patch-count.yaml")
    index = variants.variant_index(SECRET.encode(), own.id, "alice", len(own.variants))
    side, patch = own.variants[index]["side"], own.variants[index]["patch"]
    out = tmp_path / "bundle"
    done = subprocess.run([sys.executable, "-m", "grader.cli", "dist", str(out), "--exercises",
                           str(folder), "--template", str(ROOT / "student_template"),
                           "--student-id", "alice"], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    text = (out / "exercises" / "patch-count.yaml").read_text()
    assert "variants:" not in text and "{side}" not in text
    assert f"[{side}, {side}, {patch}]" in text, text  # her own question's case
    files = [p for p in out.rglob("*") if p.is_file()]
    assert not [p for p in files if SECRET.encode() in p.read_bytes()]
    (folder / variants.SECRET_FILE).unlink()
    monkeypatch.delenv(variants.SECRET_ENV)
    again = subprocess.run([sys.executable, "-m", "grader.cli", "dist", str(tmp_path / "b2"),
                            "--exercises", str(folder), "--template",
                            str(ROOT / "student_template"), "--student-id", "alice"], cwd=ROOT,
                           capture_output=True, text=True, timeout=300,
                           env={k: v for k, v in os.environ.items()
                                if k != variants.SECRET_ENV})
    assert again.returncode != 0 and "no course secret" in again.stderr


def test_vitgrade_grade_on_prairielearn_grades_the_variant_its_seed_picks(driver, tmp_path,
                                                                         monkeypatch):
    """The path of `vitgrade grade SUB --prairielearn OUT` on PrairieLearn: the settings take
    the id from data.json's variant_seed and the driver grades that id's variant, so a table of
    that variant's answers passes, and one of another variant's does not."""
    from grader.lms import prairielearn_data

    seed = 4711
    pl_id = f"pl-{seed}"  # what the settings make of it
    other = next(f"s{i}" for i in range(100) if chosen(driver, f"s{i}")["token-count"].variant
                 != chosen(driver, pl_id)["token-count"].variant)
    data = tmp_path / "data.json"
    data.write_text(json.dumps({"variant_seed": seed, "submitted_answers": {}}))
    monkeypatch.setattr(prairielearn_data, "DATA_JSON", data)
    most = chosen(driver, pl_id)["token-count"].points
    for owner, passes in ((pl_id, True), (other, False)):
        submission = lookup_table_submission(driver, owner, tmp_path / owner)
        given = {"student": str(submission), "exercises": str(EXERCISES),
                 "prairielearn": str(tmp_path / owner / "results.json")}
        settings = resolve_settings(given.get, tmp_path, {variants.SECRET_ENV: SECRET})
        assert settings.student_id == pl_id
        pl_driver = Driver(settings)
        try:
            report = pl_driver.grade(exercises=[e for e in pl_driver.variants(pl_id)[0]
                                                if e.id == "token-count"]).report
        finally:
            pl_driver.close()
        (tokens,) = report.exercises
        assert (tokens.score == most) is passes, (owner, tokens.score)
        results = json.loads((tmp_path / owner / "results.json").read_text())
        assert (results["score"] == 1.0) is passes
