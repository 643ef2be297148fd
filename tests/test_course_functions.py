"""A new function, the course's own (grader/checks/course.py; docs/authoring.md, section 4), added
only under a copy of the exercises folder and the solution: `vitgrade validate`, `compile` and
`assign`, then a correct, a buggy and an unfinished submission graded, the student bundle built
without the course's reference; and the grader package unchanged by all of it."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from conftest import EXERCISES, ROOT, SOLUTION

REFERENCE = '''"""Fixed sine-cosine position embeddings: the course's own step."""
import numpy as np


def sincos_positions(n, d):
    """(n, d): sin(t * w_i) in column 2i, cos(t * w_i) in column 2i + 1, w_i = 10000 ** (-2i/d)."""
    if d % 2:
        raise ValueError("d must be even")
    angles = np.arange(n)[:, None] * 10000.0 ** (-np.arange(0, d, 2) / d)
    table = np.empty((n, d))
    table[:, 0::2], table[:, 1::2] = np.sin(angles), np.cos(angles)
    return table


def sincos_swapped(n, d):
    """cos in the even columns, sin in the odd ones."""
    return sincos_positions(n, d)[:, [i ^ 1 for i in range(d)]]


MISCONCEPTIONS = {"sincos_swapped": sincos_swapped}
'''
SWAPPED_HINT = "You put the cosines in the even columns; the sine comes first."
SPEC = f'''id: sincos-positions
title: Fixed sine-cosine positions
lecture: Section 3 step 4
order: 200
uses: [sincos_positions]
function:
  name: sincos_positions
  params: [n, d]
  description: "`(n, d)` fixed position embeddings: sin in the even columns, cos in the odd ones"
checks:
  - name: small tables
    points: 2
    call: sincos_positions
    cases:
      - args: [4, 6]
      - args: [3, 5]
    misconceptions: &swapped
      - like: sincos_swapped
        hint: {SWAPPED_HINT}
  - name: random sizes
    points: 2
    hidden: true
    call: sincos_positions
    generate:
      generator: shapes
      count: 6
      seed: 7
      options: {{sizes: {{n: [1, 12], d: [2, 16, 2]}}, args: [n, d]}}
    misconceptions: *swapped
'''
SOLVED = '''

def sincos_positions(n, d):
    """(n, d) fixed position embeddings."""
    ### BEGIN SOLUTION
    if d % 2:
        raise ValueError("d must be even")
    angles = np.arange(n)[:, None] / 10000.0 ** (np.arange(0, d, 2) / d)
    table = np.zeros((n, d))
    table[:, 0::2] = np.sin(angles)
    table[:, 1::2] = np.cos(angles)
    return table
    ### END SOLUTION
'''

# a course function built on a shipped one: its reference calls the shipped layer_norm itself
POOL_REFERENCE = '''"""A mean-pool head on layer-normed tokens."""
import numpy as np
from grader.reference import layer_norm


def mean_pool_head(x, W, b):
    """(T, d), (d, k), (k,) -> (k,): the tokens' layer-normed mean through W and b."""
    return layer_norm(x, np.ones(x.shape[-1]), np.zeros(x.shape[-1])).mean(axis=0) @ W + b


def pool_before_norm(x, W, b):
    """The mean taken before LayerNorm."""
    return layer_norm(x.mean(axis=0), np.ones(x.shape[-1]), np.zeros(x.shape[-1])) @ W + b


MISCONCEPTIONS = {"pool_before_norm": pool_before_norm}
'''
POOL_SPEC = '''id: mean-pool
title: A mean-pool head
lecture: Section 3 step 6
order: 201
uses: [mean_pool_head]
function:
  name: mean_pool_head
  params: [x, W, b]
  description: "`(T, d), (d, k), (k,) -> (k,)`: the layer-normed tokens' mean through W and b"
  built_on: [layer_norm]
checks:
  - name: pooled logits
    points: 3
    call: mean_pool_head
    compare: {mode: allclose, rtol: 1.0e-4, atol: 1.0e-5}
    generate:
      generator: shapes
      count: 4
      seed: 11
      options: {sizes: {T: [2, 6], d: [2, 8], k: [1, 4]}, args: [[T, d], [d, k], [k]]}
    misconceptions:
      - like: pool_before_norm
        hint: Normalise each token, then average.
'''
POOL_SOLVED = '''

def mean_pool_head(x, W, b):
    """(T, d), (d, k), (k,) -> (k,)."""
    ### BEGIN SOLUTION
    d = x.shape[-1]
    return layer_norm(x, np.ones(d), np.zeros(d)).mean(axis=0) @ W + b
    ### END SOLUTION
'''


def vitgrade(*args, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    flags = ["-S"] if env else []  # the bundle's grader: no site, so no editable install's finder
    return subprocess.run([sys.executable, *flags, "-m", "grader.cli", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=600, env=env)


def grader_digest() -> str:
    digest = hashlib.sha256()
    for path in sorted((ROOT / "grader").rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(str(path).encode() + path.read_bytes())
    return digest.hexdigest()


def copy_shipped_exercises(to: Path) -> None:
    """The project's exercises without the functions the course added itself (their reference
    files, and the specs that use them), so that this test's functions are the only ones."""
    import yaml

    from grader.checks.course import FOLDER, declarations

    added = set(declarations(EXERCISES))
    stems = {p.stem for p in EXERCISES.glob("*.yaml")
             if added & set(yaml.safe_load(p.read_text()).get("uses", []))}
    shutil.copytree(EXERCISES, to, ignore=lambda folder, names: [
        n for n in names
        if n.split(".")[0] in stems or (n == FOLDER and Path(folder) == EXERCISES)])


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """A project whose exercises folder and solution add `sincos_positions`, validated, compiled
    and assigned; (its root, the grader package's digest before)."""
    before = grader_digest()
    root = tmp_path_factory.mktemp("course")
    copy_shipped_exercises(root / "exercises")
    (root / "exercises" / "reference").mkdir()
    (root / "exercises" / "reference" / "positions.py").write_text(REFERENCE)
    (root / "exercises" / "sincos-positions.yaml").write_text(SPEC)
    (root / "exercises" / "reference" / "pool.py").write_text(POOL_REFERENCE)
    (root / "exercises" / "mean-pool.yaml").write_text(POOL_SPEC)
    (root / "solutions").mkdir()
    (root / "solutions" / "vit_exercises.py").write_text(SOLUTION.read_text() + SOLVED +
                                                         POOL_SOLVED)
    for command in (["validate", "exercises"], ["compile", "--exercises", "exercises"],
                    ["assign", "solutions", "student_template"]):
        done = vitgrade(*command, cwd=root)
        assert done.returncode == 0, (command, done.stdout + done.stderr)
    return root, before


def graded(root: Path, submission: Path, *, cwd: Path | None = None, env=None,
           exercises: Path | None = None, exercise: str = "sincos-positions") -> dict:
    """The submission's results for `exercise`'s checks, by check name."""
    results = grade_json(root, submission, cwd=cwd, env=env, exercises=exercises)
    return {t["name"]: t for t in results["tests"] if exercise in t["name"]}


def grade_json(root: Path, submission: Path, *, cwd: Path | None = None, env=None,
               exercises: Path | None = None) -> dict:
    out = submission.with_suffix(".json")
    vitgrade("grade", submission, "--json", out, "--exercises", exercises or root / "exercises",
             cwd=cwd or root, env=env)
    return json.loads(out.read_text())


def test_the_correct_submission_gets_full_marks_from_the_compiled_data(course):
    root, _ = course
    done = vitgrade("compile", "--check", "--exercises", "exercises", cwd=root)
    assert done.returncode == 0, done.stdout + done.stderr  # nothing left to compute
    tests = graded(root, root / "solutions" / "vit_exercises.py")
    assert len(tests) == 2 and all(t["score"] == t["max_score"] == 2 for t in tests.values())


def test_a_buggy_submission_gets_its_misconceptions_hint(course, tmp_path):
    root, _ = course
    buggy = tmp_path / "buggy.py"
    buggy.write_text((root / "solutions" / "vit_exercises.py").read_text().replace(
        "table[:, 0::2] = np.sin(angles)\n    table[:, 1::2] = np.cos(angles)",
        "table[:, 0::2] = np.cos(angles)\n    table[:, 1::2] = np.sin(angles)"))
    tests = graded(root, buggy)
    assert len(tests) == 2
    for test in tests.values():
        assert test["score"] == 0 and SWAPPED_HINT in test["output"], test


def test_a_function_built_on_a_shipped_one_keeps_its_points_when_that_one_is_wrong(course,
                                                                                   tmp_path):
    root, _ = course
    solved = (root / "solutions" / "vit_exercises.py").read_text()
    results = grade_json(root, root / "solutions" / "vit_exercises.py")
    assert [t["score"] for t in results["tests"] if "mean-pool" in t["name"]] == [3]
    assert "fix `" not in results["output"]
    unbiased = tmp_path / "unbiased.py"  # the student's layer_norm is wrong, their head right
    wrong = "var = x.var(axis=-1, keepdims=True, ddof=1)"
    unbiased.write_text(solved.replace("var = x.var(axis=-1, keepdims=True)", wrong, 1))
    assert wrong in unbiased.read_text()
    results = grade_json(root, unbiased)
    (test,) = [t for t in results["tests"] if "mean-pool" in t["name"]]
    assert test["score"] == 3, test
    assert "passed with the grader's correct `layer_norm` standing in for yours" in test["output"]
    fix = [line for line in results["output"].splitlines() if "fix `layer_norm` first:" in line]
    assert fix and "mean-pool" in fix[0], results["output"]
    # a head that averages before normalising: its misconception's hint
    before = tmp_path / "before.py"
    before.write_text(solved.replace(
        "layer_norm(x, np.ones(d), np.zeros(d)).mean(axis=0)",
        "layer_norm(x.mean(axis=0), np.ones(d), np.zeros(d))"))
    (test,) = graded(root, before, exercise="mean-pool").values()
    assert test["score"] == 0 and "Normalise each token, then average." in test["output"], test


def test_built_on_is_the_student_apis_and_validated(course, tmp_path):
    from grader.checks.api import student_api

    root, _ = course
    assert student_api(root / "exercises").built_on["mean_pool_head"] == ("layer_norm",)
    folder = tmp_path / "exercises"
    shutil.copytree(root / "exercises", folder, ignore=shutil.ignore_patterns("compiled"))
    spec = folder / "mean-pool.yaml"
    spec.write_text(POOL_SPEC.replace("built_on: [layer_norm]", "built_on: [layer_nrom]"))
    (folder / "sincos-positions.yaml").write_text(SPEC.replace(
        "  description:", "  built_on: [mean_pool_head]\n  description:"))
    done = vitgrade("validate", folder, cwd=tmp_path)
    assert done.returncode == 1
    assert ("mean-pool.yaml:10: function 'mean_pool_head': built_on: unknown student-API "
            "function 'layer_nrom'; did you mean 'layer_norm'?") in done.stdout, done.stdout
    spec.write_text(POOL_SPEC.replace("built_on: [layer_norm]", "built_on: [sincos_positions]"))
    done = vitgrade("validate", folder, cwd=tmp_path)
    assert ("sincos-positions.yaml:9: function 'sincos_positions': built_on: mean_pool_head is "
            "built on sincos_positions (sincos_positions -> mean_pool_head -> sincos_positions)"
            ) in done.stdout, done.stdout
    # an integration check tests what its function is built on: uses: lists it
    spec.write_text(POOL_SPEC + """  - name: on your own layer_norm
    points: 1
    call: mean_pool_head
    integration: true
    cases:
      - args: [{random: [3, 4], seed: 1}, {random: [4, 2], seed: 2}, {random: 2, seed: 3}]
""")
    (folder / "sincos-positions.yaml").write_text(SPEC)
    done = vitgrade("validate", folder, cwd=tmp_path)
    assert done.returncode == 1 and ("mean-pool.yaml:5: check 'on your own layer_norm' reads "
                                     "layer_norm, which uses: does not list") in done.stdout


def test_a_reference_file_calls_another_files_function_by_name(tmp_path):
    from grader.checks.course import course_reference

    (tmp_path / "reference").mkdir()
    (tmp_path / "reference" / "a_head.py").write_text(
        "def head(x):\n    return token_mean(x) * 2\n")
    (tmp_path / "reference" / "b_tokens.py").write_text(
        "def token_mean(x):\n    return sum(x) / len(x)\n\n\ndef head(x):\n    return 0\n")
    functions = course_reference(tmp_path).functions
    assert functions["head"]([1, 2, 3]) == 4.0  # the first file's head, on the other's helper


def test_the_unfinished_template_says_not_implemented(course):
    root, _ = course
    template = (root / "student_template" / "vit_exercises.py").read_text()
    stub = template[template.index("def sincos_positions(n, d):"):]
    assert "raise NotImplementedError()" in stub and "np.sin" not in stub
    tests = graded(root, root / "student_template" / "vit_exercises.py")
    assert len(tests) == 2
    assert all(t["score"] == 0 and "not implemented yet" in t["output"] for t in tests.values())


def test_validate_checks_the_declaration_and_the_misconceptions(tmp_path):
    folder = tmp_path / "exercises"
    (folder / "reference").mkdir(parents=True)
    (folder / "sincos-positions.yaml").write_text(SPEC)
    wrong = REFERENCE.replace("def sincos_positions(n, d):", "def sincos_positions(n, dim):")
    (folder / "reference" / "positions.py").write_text(wrong.replace("(d % 2)", "(dim % 2)"))
    done = vitgrade("validate", folder, cwd=tmp_path)
    assert done.returncode == 1
    assert ("sincos-positions.yaml:6: function 'sincos_positions': params: [n, d], but "
            "reference/positions.py:5 defines sincos_positions(n, dim)") in done.stdout, done.stdout
    same = REFERENCE.replace("[:, [i ^ 1 for i in range(d)]]", "")  # the reference itself
    (folder / "reference" / "positions.py").write_text(same)
    done = vitgrade("validate", folder, cwd=tmp_path)
    assert done.returncode == 1
    assert ("sincos-positions.yaml:18: misconception 'sincos_swapped' returns what the reference "
            "returns on every case of check 'small tables'") in done.stdout, done.stdout
    (folder / "reference" / "positions.py").unlink()
    done = vitgrade("validate", folder, cwd=tmp_path)
    assert done.returncode == 1 and "unknown misconception 'sincos_swapped'" not in done.stdout
    assert "function 'sincos_positions': no reference/*.py beside the specs defines it" \
        in done.stdout, done.stdout


def test_the_student_bundle_grades_it_without_the_courses_reference(course, tmp_path):
    root, _ = course
    out = tmp_path / "bundle"
    done = vitgrade("dist", out, "--exercises", "exercises", "--template", "student_template",
                    cwd=root)
    assert done.returncode == 0, done.stdout + done.stderr
    assert not (out / "exercises" / "reference").exists()
    texts = [p.read_bytes() for p in out.rglob("*") if p.is_file()]
    assert not any(b"def sincos_swapped" in t or b"10000.0 ** (-np.arange" in t for t in texts)
    assert "| `sincos_positions(n, d)` | `(n, d)` fixed position" in (
        out / "docs" / "student-api.md").read_text()
    # the bundle's grader, which has no reference, with the dependencies installed here
    env = {**os.environ, "PYTHONPATH": f"{out}{os.pathsep}{sysconfig.get_paths()['purelib']}"}
    done = subprocess.run([sys.executable, "-S", "-c", "import importlib.util as u, grader; "
                           "print(grader.__file__, u.find_spec('grader.reference'))"],
                          cwd=out, env=env, capture_output=True, text=True)
    assert done.stdout.startswith(str(out)) and done.stdout.strip().endswith("None"), done
    solution = tmp_path / "solved.py"
    solution.write_text((root / "solutions" / "vit_exercises.py").read_text())
    tests = graded(root, solution, cwd=out, env=env, exercises=out / "exercises")
    assert [t["score"] for t in tests.values()] == [2]  # the visible check only


def test_the_grader_package_is_unchanged(course):
    _, before = course
    assert grader_digest() == before
