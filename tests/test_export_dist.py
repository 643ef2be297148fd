"""`vitgrade export gradescope` grades a submission end to end; `vitgrade dist` leaks nothing
hidden."""
from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import numpy as np
import pytest
import yaml

from grader import load_spec, load_specs
from grader.checks import inputs
from grader.checks.generators import generate_cases
from grader.checks.kinds import CallCheck

from conftest import EXERCISES, ROOT, SOLUTION, TEMPLATE

PACKAGE = ROOT / "grader"


def vitgrade(*args: str, cwd: Path = ROOT, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "grader.cli", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)


# --- Gradescope -------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def autograder(tmp_path_factory) -> Path:
    """An /autograder-like tree: the zip unpacked into source/, as Gradescope does."""
    root = tmp_path_factory.mktemp("autograder")
    archive = root / "autograder.zip"
    done = vitgrade("export", "gradescope", str(archive), "--exercises", str(EXERCISES))
    assert done.returncode == 0, done.stderr
    with zipfile.ZipFile(archive) as zipped:
        names = zipped.namelist()
        assert "setup.sh" in names and "run_autograder" in names  # at the root of the archive
        for info in zipped.infolist():
            if info.filename in ("setup.sh", "run_autograder"):
                assert (info.external_attr >> 16) & stat.S_IXUSR
        zipped.extractall(root / "source")
    for script in ("setup.sh", "run_autograder"):
        (root / "source" / script).chmod(0o755)  # zipfile does not restore modes
    return root


def run_autograder(root: Path, files: dict[str, str], *options: str) -> dict:
    submission, results = root / "submission", root / "results"
    for folder in (submission, results):
        if folder.exists():
            for path in folder.iterdir():
                path.unlink()
        folder.mkdir(exist_ok=True)
    for name, text in files.items():
        (submission / name).write_text(text)
    # PYTHONPATH: the zip's grader, as setup.sh would install it
    env = {**os.environ, "VITGRADE_AUTOGRADER_ROOT": str(root), "VITGRADE_PYTHON": sys.executable,
           "PYTHONPATH": str(root / "source" / "vit-grader")}
    done = subprocess.run([str(root / "source" / "run_autograder"), *options], cwd=root, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads((results / "results.json").read_text())


def test_the_autograder_zip_holds_the_scripts_the_grader_and_every_spec(autograder):
    source = autograder / "source"
    assert sorted(p.name for p in (source / "vit-grader" / "exercises").glob("*.yaml")) == \
        sorted(p.name for p in EXERCISES.glob("*.yaml"))
    project = tomllib.loads((source / "vit-grader" / "pyproject.toml").read_text())
    ours = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert (project["project"]["name"] == "vit-grader"
            and project["project"]["scripts"] == ours["scripts"])
    assert project["project"]["dependencies"] == ours["dependencies"]
    packages = {".".join(p.parent.relative_to(source / "vit-grader").parts)
                for p in (source / "vit-grader" / "grader").rglob("__init__.py")}
    assert packages <= set(project["tool"]["setuptools"]["packages"])
    for script in ("setup.sh", "run_autograder"):
        assert subprocess.run(["bash", "-n", str(source / script)]).returncode == 0


def test_run_autograder_grades_whatever_the_student_named_the_file(autograder):
    results = run_autograder(autograder, {"my homework (final).py": SOLUTION.read_text(),
                                          "notes.txt": "hi"})
    total = sum(e.points for e in load_specs(EXERCISES)[0])
    assert results["score"] == total and sum(t["max_score"] for t in results["tests"]) == total
    assert {t["visibility"] for t in results["tests"]} >= {"visible", "after_published"}
    assert "my homework (final).py" in results["output"]


def test_run_autograder_always_leaves_a_results_file(autograder):
    results = run_autograder(autograder, {"answers.pdf": "%PDF"})
    assert (results["score"] == 0 and "No .py or .ipynb file" in results["output"]
            and "answers.pdf" in results["output"])


def test_run_autograder_honours_vitgrade_grades_limits(autograder):
    looping = SOLUTION.read_text() + "\ndef num_patches(H, W, P):\n    while True:\n        pass\n"
    results = run_autograder(autograder, {"vit_exercises.py": looping}, "--call-timeout", "0.5")
    counting = [t for t in results["tests"] if t["name"].startswith("patch-count")]
    assert [t["score"] for t in counting] == [0, 0]  # the visible and the hidden cases
    output = counting[0]["output"]
    assert output.count("got:      `num_patches` did not return within 0.5 s") == 3, output


# --- the student bundle -----------------------------------------------------------------------

@pytest.fixture(scope="module")
def bundle(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("dist") / "bundle"
    done = vitgrade("dist", str(out), "--exercises", str(EXERCISES),
                    "--template", str(TEMPLATE.parent))
    assert done.returncode == 0, done.stderr
    return out


def bundle_files(bundle: Path) -> dict[Path, bytes]:
    return {p: p.read_bytes() for p in bundle.rglob("*") if p.is_file()}


def call_values(hidden: bool) -> list:
    """Every input and expected value of every hidden (or visible) case, evaluated as grading
    evaluates them."""
    from grader.checks.course import reference_function

    values = []
    for path in sorted(EXERCISES.glob("*.yaml")):
        for check in load_spec(path).checks:
            if check.hidden != hidden or not isinstance(check, CallCheck):
                continue
            cases = [([inputs.evaluate(a) for a in c.args],
                      {k: inputs.evaluate(v) for k, v in c.kwargs.items()}, c)
                     for c in check.cases]
            if check.generate:
                g = check.generate
                cases += [(list(a), dict(k), None)
                          for a, k in generate_cases(g.generator, g.count, g.seed, g.options)]
            for args, kwargs, case in cases:
                values += [*args, *kwargs.values()]
                if case is not None and case.has_expect:
                    values.append(inputs.evaluate(case.expect))
                else:
                    try:
                        function = reference_function(check.reference_name, check.folder)
                        values.append(function(*args, **kwargs))
                    except Exception:  # the reference refuses: the expected value is an error name
                        pass
    return values


def hidden_values() -> list:
    return call_values(hidden=True)


def needles(value) -> tuple[list[str], list[bytes]]:
    """(text, bytes) that would betray `value` if found: its float digits, its raw array bytes."""
    texts, blobs = [], []
    if isinstance(value, dict):
        for v in value.values():
            t, b = needles(v)
            texts += t
            blobs += b
    elif isinstance(value, (list, tuple)):
        for v in value:
            t, b = needles(v)
            texts += t
            blobs += b
    elif isinstance(value, np.ndarray) and value.dtype.kind == "f" and value.size >= 4:
        flat = value.ravel()
        distinctive = [float(x) for x in flat[:8]  # (an inf or a nan betrays nothing)
                       if np.isfinite(x) and abs(float(x) - round(float(x))) > 1e-3]
        texts += [repr(x) for x in distinctive[:3]] + [f"{x:.6f}" for x in distinctive[:3]]
        if np.unique(flat).size > 1:  # np.ones(7) betrays nothing: a wrong output may hold it
            blobs.append(np.ascontiguousarray(flat).tobytes())  # whole: seeds' prefixes repeat
    return texts, blobs


def test_the_bundle_holds_no_hidden_input_or_expected_value(bundle):
    """A hidden value that is also a visible case's (the checkpoint's params) is public."""
    files = bundle_files(bundle)
    text = "\n".join(data.decode("utf-8", "replace") for data in files.values())
    values = hidden_values()
    assert values  # the course has hidden cases: otherwise this test checks nothing
    public = {blob for value in call_values(hidden=False) for blob in needles(value)[1]}
    found_texts, found_blobs = 0, 0
    for value in values:
        texts, blobs = needles(value)
        for needle in texts:
            found_texts += 1
            assert needle not in text, f"hidden value {needle} is in the bundle"
        for blob in set(blobs) - public:
            if any(blob in shown for shown in public):  # a visible value's first rows
                continue
            found_blobs += 1
            assert not any(blob in data for data in files.values()), \
                "a hidden array's bytes are in the bundle"
    assert found_texts and found_blobs


def test_the_bundles_specs_are_the_visible_checks_only(bundle):
    original = {p.name: load_spec(p) for p in EXERCISES.glob("*.yaml")}
    shipped = {p.name: p for p in (bundle / "exercises").glob("*.yaml")}
    for name, exercise in original.items():
        visible = [c for c in exercise.checks if not c.hidden]
        if not visible:
            assert name not in shipped
            continue
        raw = yaml.safe_load(shipped[name].read_text())
        assert not any(check.get("hidden") for check in raw["checks"])
        assert [c["name"] for c in raw["checks"]] == [c.name for c in visible]
        assert [c.points for c in load_spec(shipped[name]).checks] == [c.points for c in visible]
        hidden_names = {c.name for c in exercise.checks if c.hidden} - {c.name for c in visible}
        assert not any(f"name: {n}\n" in shipped[name].read_text() for n in hidden_names)
    assert not list(bundle.rglob("_exercises")) and not list(bundle.rglob("solutions"))


def solution_lines() -> list[str]:
    lines = []
    for path in sorted((ROOT / "solutions").glob("*.py")):
        inside = False
        for line in path.read_text().splitlines():
            if re.match(r"\s*#+\s*BEGIN SOLUTION", line):
                inside = True
            elif re.match(r"\s*#+\s*END SOLUTION", line):
                inside = False
            elif inside and line.strip():
                lines.append(line.strip())
    return lines


def test_the_bundle_holds_no_line_of_the_solutions(bundle):
    """A bundle file holds a solution line only where the public original it comes from does: a
    starter file's docstring or a spec's question may quote a formula. The grader's files hold
    none (the bundle ships no grader/reference/, test_bundle.py); README and pyproject none. The
    compiled data keeps the visible specs as parsed, so it may quote what they quote."""
    lines = solution_lines()
    assert lines
    for path, data in bundle_files(bundle).items():
        text = data.decode("utf-8", "replace")
        relative = path.relative_to(bundle)
        if relative.parts[0] == "grader":
            origin = PACKAGE.joinpath(*relative.parts[1:])
        elif (TEMPLATE.parent / relative).is_file():
            origin = TEMPLATE.parent / relative
        elif relative.parts[0] == "docs" and (ROOT / relative).is_file():
            origin = ROOT / relative  # the student API, a public document of the project
        elif relative.parts[0] == "exercises" and (EXERCISES / relative.name).is_file():
            origin = EXERCISES / relative.name
        elif relative.parts[:2] == ("exercises", "compiled") and relative.suffix == ".json":
            origin = EXERCISES / f"{relative.stem}.yaml"
        elif relative.parts[:2] == ("exercises", "compiled") and relative.suffix == ".parsed":
            # the parsed specs are the bundle's visible specs, read back: the same public text
            origin = "\n".join(p.read_text() for p in (bundle / "exercises").glob("*.yaml"))
        else:
            origin = None  # written by `vitgrade dist`
        for line in lines:
            if not re.search(rf"(?<!\w){re.escape(line)}(?!\w)", text):  # `return table` is
                continue  # not in `return tables`
            assert origin is not None and line in (
                origin if isinstance(origin, str) else origin.read_text()), \
                f"solution line {line!r} is in {relative}"
            assert relative.parts[0] != "grader", f"solution line {line!r} is in {relative}"


def test_the_bundle_holds_the_student_api_and_its_readme_points_to_it(bundle):
    assert ((bundle / "docs" / "student-api.md").read_text()
            == (ROOT / "docs" / "student-api.md").read_text())
    assert "`docs/student-api.md`" in (bundle / "README.md").read_text()
    elsewhere = "shared/" + "curriculum"
    assert not [p for p, data in bundle_files(bundle).items()
                if elsewhere.encode() in data]


def test_the_bundle_grades_the_template_and_the_visible_checks(bundle, tmp_path):
    env = {**os.environ, "PYTHONPATH": str(bundle)}
    template = vitgrade("grade", "vit_exercises.py", "-q", cwd=bundle, env=env)
    assert template.returncode == 1 and "(0%)" in template.stdout
    solution = tmp_path / "mine.py"
    solution.write_text(SOLUTION.read_text())
    done = vitgrade("grade", str(solution), "-q", "--json", str(tmp_path / "r.json"), cwd=bundle,
                    env=env)
    assert done.returncode == 0, done.stdout
    results = json.loads((tmp_path / "r.json").read_text())
    visible = sum(c.points for e in load_specs(EXERCISES)[0] for c in e.checks if not c.hidden)
    assert results["score"] == results["max_score"] == visible
    assert all(t["visibility"] == "visible" for t in results["tests"])


def test_dist_refuses_a_template_that_holds_a_solution(tmp_path):
    (tmp_path / "template").mkdir()
    (tmp_path / "template" / "vit_exercises.py").write_text(SOLUTION.read_text())
    done = vitgrade("dist", str(tmp_path / "out"), "--template", str(tmp_path / "template"))
    assert (done.returncode == 2 and "solution marker" in done.stderr
            and not (tmp_path / "out").exists())
