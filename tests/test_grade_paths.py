"""`vitgrade grade` grades in its own process, without pytest (its `--junitxml` too);
`pytest --student` grades through the plugin. Both must give the same results, feedback and exit
code for the same submission: correct, buggy, unfinished, notebook, unloadable and hostile ones,
and a folder of specs with a broken one."""
from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from buggy_submissions import BUGGY, build_submission

from conftest import EXERCISES, ROOT, SOLUTION, SUBMISSIONS, TEMPLATE

SUBMISSIONS_GRADED = {
    "solution": SOLUTION,
    "template": TEMPLATE,
    "einsum style": SUBMISSIONS / "styles" / "einsum.py",
    "notebook": SUBMISSIONS / "styles" / "notebook.ipynb",
    "sys.exit at import": SUBMISSIONS / "hostile" / "sys_exit.py",
    "segfault": SUBMISSIONS / "hostile" / "segfault.py",
    "NaNs for answers": SUBMISSIONS / "hostile" / "nans.py",
    "a syntax error": None,  # written by the test
}
BUGS = [BUGGY[0], BUGGY[len(BUGGY) // 2], BUGGY[-1]]


def without_times(results: dict) -> dict:
    """Gradescope results, the seconds taken left out (they differ from run to run)."""
    results.pop("execution_time", None)
    return results


def grade_in_process(submission: Path, tmp_path: Path, exercises: Path = EXERCISES,
                     *extra: str) -> tuple[int, dict]:
    out, elsewhere = tmp_path / "direct.json", tmp_path / "elsewhere"
    elsewhere.mkdir(exist_ok=True)
    done = subprocess.run([sys.executable, "-m", "grader.cli", "grade", str(submission), "-q",
                           "--exercises", str(exercises), "--json", str(out), *extra],
                          cwd=elsewhere, capture_output=True, text=True, timeout=300)
    # (from a folder of its own, as pytester's run is: both show every path absolute)
    assert "Traceback" not in done.stdout + done.stderr
    return done.returncode, without_times(json.loads(out.read_text()))


def grade_through_pytest(grade_with, submission: Path, tmp_path: Path,
                         exercises: Path = EXERCISES) -> tuple[int, dict]:
    out = tmp_path / "plugin.json"
    run = grade_with(submission, "--json", str(out), exercises=exercises)
    return int(run.ret), without_times(json.loads(out.read_text()))


def exit_code(pytest_code: int) -> int:
    """`vitgrade grade`'s exit code for a pytest exit code (README: 0, 1, or 2)."""
    return {0: 0, 1: 1}.get(pytest_code, 2)


def submission_copy(name: str, folder: Path) -> Path:
    """The submission `name` in `folder`: a hostile one beside the solution it imports."""
    source = SUBMISSIONS_GRADED[name]
    folder.mkdir()
    if source is None:
        (folder / "broken.py").write_text("def num_patches(H, W, P)\n    return 0\n")
        return folder / "broken.py"
    if source.parent.name == "hostile":
        shutil.copy(SOLUTION, folder / "correct_solution.py")
    shutil.copy(source, folder / source.name)
    return folder / source.name


@pytest.mark.parametrize("name", list(SUBMISSIONS_GRADED))
def test_both_paths_give_the_same_results(name, grade_with, tmp_path):
    submission = submission_copy(name, tmp_path / "submission")
    code, direct = grade_in_process(submission, tmp_path)
    plugin_code, plugin = grade_through_pytest(grade_with, submission, tmp_path)
    assert direct == plugin
    assert code == exit_code(plugin_code)


@pytest.mark.parametrize("snippet", BUGS, ids=[path.stem for path in BUGS])
def test_both_paths_give_a_buggy_submission_the_same_score_and_hint(snippet, grade_with,
                                                                    tmp_path):
    submission = build_submission(snippet, tmp_path)
    code, direct = grade_in_process(submission, tmp_path)
    plugin_code, plugin = grade_through_pytest(grade_with, submission, tmp_path)
    assert direct == plugin and direct["score"] < sum(t["max_score"] for t in direct["tests"])
    assert code == exit_code(plugin_code) == 1


def test_both_paths_report_a_broken_spec_and_grade_the_others(grade_with, tmp_path):
    specs = tmp_path / "specs"
    specs.mkdir()
    for name in ("patch-count.yaml", "token-count.yaml"):
        shutil.copy(EXERCISES / name, specs / name)
    (specs / "broken.yaml").write_text("id: broken\ntitle: [unclosed\n")
    code, direct = grade_in_process(SOLUTION, tmp_path, specs)
    plugin_code, plugin = grade_through_pytest(grade_with, SOLUTION, tmp_path, specs)
    assert direct == plugin and "broken.yaml" in direct["output"]
    assert {t["name"].split(":")[0] for t in direct["tests"]} >= {"patch-count", "token-count"}
    assert code == exit_code(plugin_code) == 1


def junit_cases(path: Path) -> dict:
    """{test case: (its properties, failed)} of a JUnit XML file."""
    cases = ET.parse(path).getroot().iter("testcase")
    return {case.get("name"): ({p.get("name"): float(p.get("value"))
                                for p in case.iter("property")},
                               case.find("failure") is not None) for case in cases}


def test_junitxml_gives_what_pytests_junitxml_gives_the_plugin(grade_with, tmp_path):
    """`vitgrade grade --junitxml` writes it from the report, without pytest: the same test
    cases, points, scores and failures as pytest's own junitxml of `pytest --student`."""
    submission = build_submission(BUGS[0], tmp_path)
    code, direct = grade_in_process(submission, tmp_path)
    junit, plugin_junit = tmp_path / "junit.xml", tmp_path / "plugin.xml"
    junit_code, with_junit = grade_in_process(submission, tmp_path, EXERCISES,
                                              "--junitxml", str(junit))
    grade_with(submission, "--junitxml", str(plugin_junit))
    assert direct == with_junit and code == junit_code == 1
    cases = junit_cases(junit)
    assert cases == junit_cases(plugin_junit)
    assert any(failed for _, failed in cases.values()) and not all(
        failed for _, failed in cases.values())


# What a cold `vitgrade grade` with current compiled data has no use for, each a few ms or more
# of every student's wait (issue 39): pytest, the YAML reader and the schema validator (the
# compiled indexes hold the checked specs), the reference (the expected values are compiled),
# the HTML report's escaping, importlib's resources and metadata, the extras; what only a failed
# check, a broken spec or `vitgrade compile` needs: the regrade's stand-ins and the reference's
# process, close-match suggestions (difflib), listing the subcommands (pkgutil), the compiler of
# expectations, the ratios of wrong counts (fractions, with decimal); the `.npz` pools' zip
# (the folder's one compiled file holds them: compiled_folder.py)
NOT_ON_THE_GRADE_PATH = ("pytest", "yaml", "fastjsonschema", "jsonschema", "nbformat",
                         "grader.reference", "html", "importlib.resources", "importlib.metadata",
                         "email", "tqdm", "safetensors", "matplotlib", "grader.checks.stand_ins",
                         "grader.checks.oracle", "difflib", "pkgutil",
                         "grader.checks.compile_specs", "grader.checks.compile_stand_ins",
                         "fractions", "decimal", "zipfile")


def test_the_in_process_path_imports_only_what_grading_needs(tmp_path):
    """What makes it fast: pytest is neither imported nor started, nor the rest of that list."""
    probe = ("import sys; from grader.cli import main; main(['grade', sys.argv[1], '-q']);"
             f"print([m for m in {NOT_ON_THE_GRADE_PATH!r} if m in sys.modules])")
    done = subprocess.run([sys.executable, "-c", probe, str(SOLUTION)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.stdout.strip().splitlines()[-1] == "[]", done.stdout + done.stderr


AT_THE_FORK = """
import os, sys
forked = os.fork
seen = []
def fork():
    seen.append(sorted(m for m in ("secrets", "hashlib", "random", "numpy") if m in sys.modules))
    return forked()
os.fork = fork
from grader import cli
exit_now = cli._exit_now
def leaving(code):
    print(seen[0], flush=True)  # the zygote's fork: the first
    exit_now(code)
cli._exit_now = leaving
sys.argv = ["vitgrade", "grade", sys.argv[1], "-q"]
cli.entry_point()
"""


def test_the_zygote_is_forked_with_what_both_processes_import():
    """`secrets` (hashlib with OpenSSL, random: ~4.5 ms) is imported once, before the zygote's
    fork: its workers need it (sandbox.py), the grading process too (numpy.random)."""
    done = subprocess.run([sys.executable, "-c", AT_THE_FORK, str(SOLUTION)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    last = done.stdout.strip().splitlines()[-1]
    assert last == "['hashlib', 'numpy', 'random', 'secrets']", done.stdout + done.stderr


UNDOCUMENTED = """
import dataclasses, sys
made = dataclasses._process_class
undocumented = []
def process(cls, *args):
    if cls.__doc__ is None:  # dataclasses would write one with inspect.signature
        undocumented.append(f"{cls.__module__}.{cls.__qualname__}")
    return made(cls, *args)
dataclasses._process_class = process
from grader.cli import main
main(["grade", sys.argv[1], "-q"])
print(undocumented)
"""


def test_every_dataclass_on_the_grade_path_has_a_docstring():
    """Else `dataclasses` writes one from `inspect.signature` (~0.2-0.3 ms a class, every run)."""
    done = subprocess.run([sys.executable, "-c", UNDOCUMENTED, str(SOLUTION)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert done.stdout.strip().splitlines()[-1] == "[]", done.stdout + done.stderr


def ctrl_c_as_in_a_terminal() -> None:
    """In the child before exec: ^C as a terminal gives it. A test run started in the background
    of a script (`pytest ... &`) ignores SIGINT, and Python keeps an ignored SIGINT ignored, so
    the grader would never see the ^C this test sends."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_writes_the_results_of_what_was_graded_and_exits_2(tmp_path):
    work = tmp_path / "work"
    work.mkdir()
    work.chmod(0o777)  # as root, student code runs as a user of its own and writes the marker
    hanging = work / "softmax-started"
    submission = work / "slow.py"
    submission.write_text(SOLUTION.read_text() + "\n\ndef softmax(x, axis=-1):\n"
                          "    import time, pathlib\n"
                          f"    pathlib.Path({str(hanging)!r}).touch()\n    time.sleep(120)\n")
    out = tmp_path / "results.json"
    process = subprocess.Popen([sys.executable, "-m", "grader.cli", "grade", str(submission),
                                "-q", "--exercises", str(EXERCISES), "--json", str(out),
                                "--call-timeout", "100"], cwd=tmp_path, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               preexec_fn=ctrl_c_as_in_a_terminal)
    deadline = time.monotonic() + 90
    while not hanging.exists():  # softmax's first case hangs (stable-softmax comes after patchify)
        assert process.poll() is None and time.monotonic() < deadline, process.communicate()
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 2 and "Traceback" not in stdout + stderr
    assert "interrupted" in stderr
    graded = {test["name"].split(":")[0] for test in json.loads(out.read_text())["tests"]}
    assert "patch-count" in graded and "vit-forward" not in graded


@pytest.mark.parametrize("where", ["missing", "a file"])
def test_an_exercises_folder_that_is_not_one_gets_one_line_and_a_results_file(where, tmp_path):
    exercises = tmp_path / "nowhere" if where == "missing" else SOLUTION
    out = tmp_path / "results.json"
    done = subprocess.run([sys.executable, "-m", "grader.cli", "grade", str(SOLUTION), "-q",
                           "--exercises", str(exercises), "--json", str(out)], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "Traceback" not in done.stdout + done.stderr
    assert done.stderr.startswith(f"vitgrade: cannot read the exercise specs in {exercises}")
    assert len(done.stderr.splitlines()) == 1 and "--exercises DIR" in done.stderr
    assert json.loads(out.read_text())["tests"] == []


def test_a_results_folder_that_cannot_be_made_gets_one_line(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    for out, said in ((Path("/proc/no-such-folder/results.json"), "cannot write"),
                      (blocker / "results.json", "refusing to write")):
        done = subprocess.run([sys.executable, "-m", "grader.cli", "grade", str(SOLUTION), "-q",
                               "--json", str(out)], cwd=tmp_path, capture_output=True, text=True,
                              timeout=120)
        assert done.returncode == 2 and "Traceback" not in done.stdout + done.stderr, out
        assert done.stderr.startswith(f"vitgrade grade: {said} {out}"), done.stderr
        assert len(done.stderr.splitlines()) == 1


def test_quiet_and_verbose_print_the_same_with_junitxml(tmp_path):
    """-q --verbose prints the table and the hiding note, --junitxml or not."""
    printed = []
    for extra in ([], ["--junitxml", str(tmp_path / "junit.xml")]):
        done = subprocess.run([sys.executable, "-m", "grader.cli", "grade", str(SOLUTION), "-q",
                               "--verbose", "--exercises", str(EXERCISES), *extra], cwd=tmp_path,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stdout + done.stderr
        printed.append(done.stdout.splitlines())
    assert printed[0] == printed[1]
    assert printed[0][-1].startswith(("student code sees only", "secrets are not hidden"))
