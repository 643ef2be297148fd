"""The student bundle installed alone: it grades the visible checks as the full grader does, and
holds no solution, no hidden check and no plain-text right answer.

One bundle and one fresh venv for the module: `python -m venv`, then `pip install --no-deps
BUNDLE` (its dependencies come from this interpreter's site-packages through a .pth file, which
does not run the project's editable-install hook, so `grader` there is the bundle's alone).
"""
from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
import yaml
from buggy_submissions import (
    BUGGY,
    build_submission,
    exercises_running,
    of_each_kind,
)

from grader import load_spec, load_specs
from grader.checks.api import student_api
from grader.checks.kinds import AnswerCheck, CallCheck
from grader.checks.oracle import NO_REFERENCE

from conftest import EXERCISES, ROOT, SOLUTION, TEMPLATE, misconceptions_of

DRIVER = Path(__file__).resolve().parent / "bundle_driver.py"
INTEGRATION_EXERCISE = "vit-checkpoint"  # runs the student's functions end to end
HEDGE = "This check runs your functions end to end."  # its hint (checks/dependencies.py)


def run(command: list, timeout: float = 600, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([str(c) for c in command], capture_output=True, text=True,
                          timeout=timeout, **kwargs)


def class_timeout(submissions: list) -> float:
    """A hang guard for grading a whole class in one process, not a speed test: 5 s a
    submission (about 0.2 s each idle; CI on a loaded 2-core machine was seen 10x slower)."""
    return 120 + 5 * len(submissions)


@pytest.fixture(scope="module")
def bundle(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("dist") / "bundle"
    done = run([sys.executable, "-m", "grader.cli", "dist", out, "--exercises", EXERCISES,
                "--template", TEMPLATE.parent], cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return out


@pytest.fixture(scope="module")
def venv(bundle, tmp_path_factory) -> Path:
    """A fresh venv with the bundle installed; returns its bin/ folder."""
    root = tmp_path_factory.mktemp("venv") / "v"
    assert run([sys.executable, "-m", "venv", root]).returncode == 0
    site = Path(run([root / "bin" / "python", "-c",
                     "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                    cwd=root).stdout.strip())
    (site / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    done = run([root / "bin" / "python", "-m", "pip", "install", "-q", "--no-deps", bundle],
               cwd=root)
    assert done.returncode == 0, done.stdout + done.stderr
    return root / "bin"


@pytest.fixture(scope="module")
def elsewhere(tmp_path_factory) -> Path:
    """A folder outside the project: grading there uses the installed (the bundle's) specs."""
    return tmp_path_factory.mktemp("student")


def installed_exercises(venv: Path, cwd: Path) -> Path:
    done = run([venv / "python", "-c", "from grader.spec.locate import installed_exercises; "
                "print(installed_exercises())"], cwd=cwd)
    assert done.returncode == 0, done.stderr
    return Path(done.stdout.strip())


def visible_points() -> float:
    return sum(c.points for e in load_specs(EXERCISES)[0] for c in e.checks if not c.hidden)


# --- grading --------------------------------------------------------------------------------

def test_the_installed_bundle_has_no_reference(venv, elsewhere):
    done = run([venv / "python", "-c", "import importlib.util, grader; "
                "print(grader.__file__, importlib.util.find_spec('grader.reference'))"],
               cwd=elsewhere)
    assert done.returncode == 0, done.stderr
    assert "site-packages" in done.stdout and done.stdout.strip().endswith("None")


def test_the_bundle_gives_the_solution_full_visible_marks(venv, elsewhere):
    solution = elsewhere / "vit_exercises.py"
    solution.write_text(SOLUTION.read_text())
    done = run([venv / "vitgrade", "grade", solution, "-q", "--json", elsewhere / "r.json"],
               cwd=elsewhere)
    assert done.returncode == 0, done.stdout + done.stderr
    results = json.loads((elsewhere / "r.json").read_text())
    assert results["score"] == results["max_score"] == visible_points()
    env = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    done = run([venv / "python", "-m", "pytest", "-p", "grader.plugin", "-p", "no:cacheprovider",
                "--student", solution], cwd=elsewhere, env=env)
    assert done.returncode == 0 and f"{visible_points():g} / {visible_points():g}" in done.stdout, \
        done.stdout[-2000:]


@pytest.mark.parametrize("command", [["validate"], ["compile"], ["export", "gradescope", "a.zip"],
                                     ["grade-all", "."], ["assign", "src", "out"]])
def test_an_instructors_command_in_the_bundle_says_in_one_line_it_needs_the_full_grader(
        venv, elsewhere, command):
    done = run([venv / "vitgrade", *command], cwd=elsewhere)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith(f"vitgrade {command[0]}: an instructor's command, which needs "
                                  "the full grader") and len(done.stderr.splitlines()) == 1
    assert not (elsewhere / "a.zip").exists()
    done = run([sys.executable, "-m", "grader.cli", *command[:1], "--help"], cwd=elsewhere)
    assert done.returncode == 0 and "usage: vitgrade" in done.stdout  # the full grader runs it


def test_check_in_a_notebook_grades_with_the_bundle(venv, elsewhere):
    """check()'s engine on the solution's live names, and on one wrong multiple-choice answer,
    whose sealed feedback it shows."""
    (elsewhere / "live.py").write_text(SOLUTION.read_text()
                                       + '\nANSWERS["causal_mask"] = "speed"\n')
    script = ("import live; from grader.notebook_check import grade_namespace; "
              "r = grade_namespace(vars(live)); "
              "print(r.score, r.max_score); "
              "print([c.hint for e in r.exercises for c in e.checks if not c.passed])")
    done = run([venv / "python", "-c", script], cwd=elsewhere)
    assert done.returncode == 0, done.stderr
    score, total = map(float, done.stdout.splitlines()[0].split())
    speed = load_spec(EXERCISES / "no-causal-mask.yaml").checks[-1].options["speed"]
    assert total == visible_points() and score == total - 2
    assert speed.split(":")[0] in done.stdout.splitlines()[1]


def test_buggy_submissions_get_the_full_graders_visible_scores_and_hints(venv, tmp_path, request):
    """The buggy fixtures, two of each kind (of_each_kind: about a third of them; test_catalogue
    grades every one), graded by the bundle (its visible specs' compiled
    values only) and by the full grader (the instructor's compiled data: its stand-ins answer
    from the same recording as the bundle's): the same checks, scores, messages, hints and
    misconceptions; except that where the full grader names a mistake its error model generated
    from the reference ("op:...", grader/reference/error_model), the bundle, which has no
    reference, gives today's hint: the same check otherwise. The first of each kind is graded
    on every exercise, the second on those that run a function it replaces (the others run the
    solution's code alone)."""
    only = request.config.getoption("only_buggy")
    chosen = ([s for s in BUGGY if any(name in s.name for name in only)] if only
              else of_each_kind(BUGGY))
    assert chosen, f"no buggy fixture's name contains any of {only}"
    whole = set(of_each_kind(BUGGY, per_kind=1))
    exercises = load_specs(EXERCISES)[0]

    def argument(snippet: Path, submission: Path) -> str:  # the driver's: PATH or PATH::IDS
        if only or snippet in whole:
            return str(submission)
        return f"{submission}::{','.join(sorted(exercises_running(snippet, exercises)))}"

    submissions = [build_submission(snippet, tmp_path) for snippet in chosen]
    arguments = [argument(*pair) for pair in zip(chosen, submissions, strict=True)]
    submissions.append(tmp_path / "solution.py")
    submissions[-1].write_text(SOLUTION.read_text())
    arguments.append(str(submissions[-1]))
    bundled = run([venv / "python", DRIVER, installed_exercises(venv, tmp_path), *arguments],
                  cwd=tmp_path, timeout=class_timeout(submissions))
    assert bundled.returncode == 0, bundled.stderr[-3000:]
    full = run([sys.executable, DRIVER, EXERCISES, *arguments], cwd=tmp_path,
               timeout=class_timeout(submissions))
    assert full.returncode == 0, full.stderr[-3000:]
    bundled, full = json.loads(bundled.stdout), json.loads(full.stdout)
    assert set(bundled) == set(full) == {str(s) for s in submissions}
    # an exercise the grader itself failed on (session.internal_error): never, and said whole
    failed = [(Path(s).name, e, c[4]) for run in (bundled, full) for s, graded in run.items()
              for e, checks in graded.items() for c in checks if c[0] == "grading"]
    assert not failed, failed
    hinted = stood_in = 0
    # an exercise with variants: the bundle has none of their cases (tests/test_variants.py)
    varied = {e.id for e in exercises if e.variants}
    for submission in full:
        bundle_only = set()  # exercises a correct caller lost in the bundle only (below)
        for exercise, checks in sorted(full[submission].items(),
                                       key=lambda item: item[0] == INTEGRATION_EXERCISE):
            if exercise in varied:
                continue
            for got, want in zip(bundled[submission][exercise], checks, strict=True):
                # a failed check always has a hint line, in the bundle too (round 56: a visible
                # check showed a hidden one's checklist in the full grader, nothing here)
                assert got[3] == "passed" or got[5], (Path(submission).name, exercise, got[0])
                if bundle_only and exercise == INTEGRATION_EXERCISE:
                    # its hint lists the functions that lose points in their own exercises:
                    # in the bundle, those too
                    got = [*got[:5], want[5], *got[6:]]
                elif exercise == INTEGRATION_EXERCISE and got[5] != want[5] and (
                        want[5] or "").startswith(HEDGE):
                    # the hedge names a helper only where a correct stand-in changes this run's
                    # values or cannot be tried (helper_shows.py): the bundle answers recorded
                    # calls only, so each may try what the other cannot: both hedge
                    assert (got[5] or "").startswith(HEDGE), (got, want)
                    got = [*got[:5], want[5], *got[6:]]
                if want[7] and not got[7] and "not graded again" in got[4]:
                    # the full grader answered a helper's call no recording holds; the bundle has
                    # no reference and says so (docs/spec.md, "A call nobody recorded is
                    # computed"): a broken caller fails in both, a correct one (its own way of
                    # calling a broken helper) passes in the full grader only
                    assert not (got[6] or "").startswith("op:")
                    if want[3] == "passed":
                        assert got[3] == "failed" and NO_REFERENCE in got[4], got
                        bundle_only.add(exercise)
                        continue
                    got, want = got[:4], want[:4]
                elif want[6] == "changes_input_in_place" and ", through `" in (want[5] or ""):
                    # the full grader's stand-in for the helper that wrote (written_by.py),
                    # computed by the reference the bundle has not: there, the write is said as
                    # the checked function's
                    assert got[6] == want[6] and got[5].startswith("Change no array"), got
                    got, want = got[:5] + got[6:], want[:5] + want[6:]
                elif want[6] and want[6].startswith("op:"):
                    assert not (got[6] or "").startswith("op:")
                    got, want = got[:5] + got[7:], want[:5] + want[7:]
                assert got == want, (Path(submission).name, exercise)
        hinted += sum(1 for checks in full[submission].values() for c in checks if c[6])
        stood_in += sum(1 for checks in full[submission].values() for c in checks if c[7])
    if only:
        return  # a few fixtures chosen by --only-buggy: the coverage figures below need them all
    assert hinted >= len(chosen) // 2  # the comparison covers misconception hints, not only scores
    assert stood_in >= 20  # and checks graded around broken helpers (compiled stand-in answers)


# --- what the bundle holds ------------------------------------------------------------------

def bundle_texts(bundle: Path) -> dict[Path, str]:
    return {p: p.read_bytes().decode("utf-8", "replace") for p in bundle.rglob("*") if p.is_file()}


def test_no_file_of_the_bundle_defines_a_student_api_function_or_a_misconception(bundle):
    functions = student_api(EXERCISES).signatures  # the shipped ones and the course's own
    names = set(functions) | set(misconceptions_of())
    api_doc = (bundle / "docs" / "student-api.md").read_text()
    assert all(f"`{name}" in api_doc for name in functions)  # the names the students' doc lists
    sources = [p for p in bundle.rglob("*.py") if p.name != "vit_exercises.py"]  # the template
    assert len(sources) > 50
    for path in sources:
        tree = ast.parse(path.read_text(), filename=str(path))
        defined = {n.name for n in ast.walk(tree)
                   if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
        defined |= {t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets
                    if isinstance(t, ast.Name)}
        assert not defined & names, f"{path.relative_to(bundle)} defines {defined & names}"
    assert not (bundle / "grader" / "reference").exists()
    template = ast.parse((bundle / "vit_exercises.py").read_text())
    for node in ast.walk(template):  # the template's functions only raise NotImplementedError
        if isinstance(node, ast.FunctionDef) and node.name in names:
            assert "NotImplementedError" in ast.unparse(node), node.name


def derivable_hidden_cases(texts: dict[Path, str], hidden: list) -> list[str]:
    """What in the bundle's specs would let a student draw the cases of a hidden check: the check
    itself, or a visible `generate:` with its generator and seed (the same rng then draws the
    same argument lists, whatever the count). A number that is merely equal (a visible input's own
    `{random: ..., seed: 101}`, another generator's seed) draws other inputs: no leak."""
    specs = {p: t for p, t in texts.items() if p.suffix == ".yaml" and "exercises" in p.parts}
    drawn = {(g.get("generator"), g.get("seed", 0)) for t in specs.values()
             for c in yaml.safe_load(t)["checks"] if isinstance(g := c.get("generate"), dict)}
    joined = "\n".join(specs.values())
    found = [f"hidden check {c.name!r} is in the bundle" for c in hidden
             if f"name: {c.name}\n" in joined]
    return found + [f"{c.name!r}: the bundle draws {c.generate.generator} with seed "
                    f"{c.generate.seed}" for c in hidden
                    if isinstance(c, CallCheck) and c.generate
                    and (c.generate.generator, c.generate.seed) in drawn]


def shipped_hidden_checks() -> list:
    return [c for p in sorted(EXERCISES.glob("*.yaml")) for c in load_spec(p).checks if c.hidden]


def test_the_bundle_has_no_hidden_check_nor_a_hidden_generators_seed(bundle):
    texts = bundle_texts(bundle)
    specs = [p for p in texts if p.suffix == ".yaml"]
    assert specs
    for path in specs:
        assert not any(c.get("hidden") for c in yaml.safe_load(texts[path])["checks"])
    hidden = shipped_hidden_checks()
    assert any(isinstance(c, CallCheck) and c.generate for c in hidden)
    assert derivable_hidden_cases(texts, hidden) == []


def test_the_authoring_walk_throughs_hidden_seed_is_no_leak(bundle, tmp_path):
    """docs/authoring.md's question, followed literally, adds a hidden check drawn with seed 101,
    a number a visible input of the bundle also uses (`{random: [8, 8, 3], seed: 101}`): equal,
    yet no hidden case can be drawn from the bundle."""
    text = (ROOT / "docs" / "authoring.md").read_text(encoding="utf-8")
    block = re.search(r"```yaml\n(id: patches-small-image\n.*?)```", text, re.S).group(1)
    (tmp_path / "patches-small-image.yaml").write_text(block)
    walk_through = [c for c in load_spec(tmp_path / "patches-small-image.yaml").checks
                    if c.hidden]
    assert [c.generate.seed for c in walk_through] == [101]
    texts = bundle_texts(bundle)
    assert re.search(r"seed\W+101\b", "\n".join(texts.values()))  # the equal number is there
    assert derivable_hidden_cases(texts, shipped_hidden_checks() + walk_through) == []


def test_a_visible_generate_with_a_hidden_checks_generator_and_seed_is_a_leak(tmp_path):
    spec = tmp_path / "exercises" / "x.yaml"
    hidden = [c for c in shipped_hidden_checks()
              if isinstance(c, CallCheck) and c.generate][0]
    drawn = hidden.generate
    visible = (f"id: x\nchecks:\n  - name: drawn\n    call: f\n    generate: "
               f"{{generator: {drawn.generator}, count: 1, seed: {drawn.seed}}}\n")
    assert derivable_hidden_cases({spec: visible}, [hidden]) == [
        f"{hidden.name!r}: the bundle draws {hidden.generate.generator} with seed "
        f"{hidden.generate.seed}"]
    other_seed = visible.replace(f"seed: {hidden.generate.seed}}}", "seed: 99999}")
    assert derivable_hidden_cases({spec: other_seed}, [hidden]) == []


def test_the_bundle_has_no_right_answer_in_plain_text(bundle):
    texts = "\n".join(bundle_texts(bundle).values())
    questions = [c for p in sorted(EXERCISES.glob("*.yaml")) for c in load_spec(p).checks
                 if isinstance(c, AnswerCheck) and not c.hidden]
    assert questions
    for check in questions:
        assert not re.search(rf"correct\W+{re.escape(check.correct)}\b", texts)
        for option, feedback in check.options.items():
            assert feedback[:40] not in texts, (check.name, option)
    shipped = yaml.safe_load((bundle / "exercises" / "no-causal-mask.yaml").read_text())
    answer = [c for c in shipped["checks"] if "answer" in c][0]["answer"]
    assert set(answer["options"]) == {"bidirectional", "speed", "leak"}  # still on the sheet
