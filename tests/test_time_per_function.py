"""Time is per function (issue 22): a function that does not return costs its own points once.

The instructor's solution with `while True: pass` in one function, graded with the default
limits as an autograder would (`python -m grader.cli grade SUB --json OUT`), costs about one
call timeout more than the solution itself and loses points only on the exercises whose `uses:`
names the looping function (integration checks aside): per-exercise scores are compared with
the solution's, graded in the same run. So does a function that loops only on some inputs, or
that catches the grader's stop in its loop (its short retries last until one does not return
either: issue 39); in grade-all, such a student costs the class about
one call timeout and is listed under "needs a look".

What a loop costs is read from what the worker armed, not timed (a loaded machine stretches
every clock but the grader's limits): each time the looping function starts to loop it logs its
worker's pid and the time left on the worker's alarm for the call (9 s of a 10 s call timeout;
0.8 s of a short retry). The alarm stops the first call that loops in a worker, and that worker
is replaced (a call after it, in the same request, is cut short with it): what the grader paid is
the first alarm logged by each worker. One full timeout, then short retries, within the time the
checks that call the function may spend on them, is "about one call timeout".
"""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from grader.worker.limits import DEFAULT_LIMITS

from conftest import EXERCISES, ROOT, SOLUTION

CALL_TIMEOUT = DEFAULT_LIMITS.call_timeout
RETRY_SECONDS = DEFAULT_LIMITS.retry_timeout
LOOP = "    while True:\n        pass\n"
# the grader's stop, caught in the loop: it is raised again at the next line (top_level.py)
SWALLOWING_LOOP = ("    while True:\n        try:\n            while True:\n                pass\n"
                   "        except BaseException:\n            pass\n")
GRAYSCALE_LOOP = "    while np.ndim(image) == 2:  # loops on grayscale images only\n        pass\n"
VARIANTS = {  # stem -> (the looping function, the loop put at its start)
    "loop_num_patches": ("num_patches", LOOP),
    "loop_patchify": ("patchify", LOOP),
    "swallowing_num_patches": ("num_patches", SWALLOWING_LOOP),
    "grayscale_patchify": ("patchify", GRAYSCALE_LOOP),
}
DID_NOT_RETURN = "`{}` did not return within {:g} s; its other cases were not run"


def with_loop(source: str, function: str, loop: str, log: Path | None = None) -> str:
    """The solution's source with `loop` as the first statement of `function` (after its
    docstring); with a `log`, a line is added to that file each time the loop starts to loop."""
    found = re.search(rf'^def {function}\(.*?\):\n    """.*?"""\n', source, re.S | re.M)
    assert found, function
    if log is not None:
        condition = loop.split("while ", 1)[1].split(":", 1)[0]
        # the worker, told apart across PID namespaces (as root each worker is pid 1 of its own)
        pid = ("str(__import__('os').stat('/proc/self/ns/pid').st_ino) + ':' + "
               "open('/proc/self/status').read().split('NSpid:')[1].split(chr(10))[0].split()[-1]"
               " + ':' + open('/proc/self/stat').read().rsplit(')', 1)[1].split()[19]")
        alarm = "__import__('signal').getitimer(__import__('signal').ITIMER_REAL)[0]"
        loop = (f"    if {condition}:\n        with open({str(log)!r}, 'a') as log:\n"
                f"            log.write(str({pid}) + ' ' + str({alarm}) + '\\n')\n" + loop)
    return source[:found.end()] + loop + source[found.end():]


def log_folder(submissions: Path) -> Path:
    """A folder for logs the worker's users write (as root, each worker is a user of its own): in
    the submissions' folder, which their view of the file system holds (a dot folder, which
    grade-all does not take for a student's)."""
    folder = submissions / ".logs"
    folder.mkdir()
    folder.chmod(0o777)
    return folder


def log_file(folder: Path, name: str) -> Path:
    """An empty log in `folder` that every worker's user may append to."""
    log = folder / name
    log.touch()
    log.chmod(0o666)
    return log


def alarms(log: Path) -> list[float]:
    """The seconds each call that looped was stopped after: of each worker, the first loop's
    alarm, as it was when the loop started."""
    first: dict[str, float] = {}
    for line in log.read_text().splitlines() if log.exists() else []:
        pid, seconds = line.split()
        first.setdefault(pid, float(seconds))
    return list(first.values())


def about_one_call_timeout(alarms: list[float], checks: int) -> bool:
    """One call stopped at (nearly) the call timeout, and the short retries within what the checks
    that call the function may spend on them, with a call timeout to spare."""
    full = [seconds for seconds in alarms if seconds > RETRY_SECONDS]
    return (len(full) == 1 and full[0] > CALL_TIMEOUT / 2
            and sum(alarms) < 2 * CALL_TIMEOUT + checks * RETRY_SECONDS)


def grade(submission: Path, out: Path, log: Path) -> tuple[dict, list[float]]:
    """(the Gradescope results, the alarms of the calls in which the looping function looped)."""
    command = [sys.executable, "-m", "grader.cli", "grade", str(submission), "--json", str(out),
               "--exercises", str(EXERCISES)]
    subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=submission.parent)
    return json.loads(out.read_text()), alarms(log)


def scores(results: dict) -> dict[str, float]:
    """exercise id -> its score, from the Gradescope results."""
    out: dict[str, float] = {}
    for test in results["tests"]:
        out[test["tags"][0]] = out.get(test["tags"][0], 0.0) + test["score"]
    return out


def outputs(results: dict, exercise: str) -> str:
    return "\n".join(t.get("output", "") for t in results["tests"] if t["tags"][0] == exercise)


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """stem -> (results, the alarms of the calls it looped in) for the solution ("solution") and
    each variant, graded two at a time."""
    folder = tmp_path_factory.mktemp("loops")
    folder.chmod(0o755)  # as root, the worker (a user of its own) reads the submissions
    logs = log_folder(folder)
    source = SOLUTION.read_text()
    (folder / "solution.py").write_text(source)
    for stem, (function, loop) in VARIANTS.items():
        (folder / f"{stem}.py").write_text(with_loop(source, function, loop,
                                                     log_file(logs, stem)))
    stems = ["solution", *VARIANTS]
    with ThreadPoolExecutor(2) as pool:
        done = pool.map(lambda s: grade(folder / f"{s}.py", folder / f"{s}.json", logs / s),
                        stems)
        return dict(zip(stems, done, strict=True))


def allowed_losses(catalogue, function: str) -> set[str]:
    """The exercises whose `uses:` names `function`, and those with integration checks."""
    return {e.id for e in catalogue
            if function in e.uses or any(getattr(c, "integration", False) for c in e.checks)}


def own_checks(catalogue, function: str) -> int:
    """The checks that call `function` themselves: each may give it one short retry."""
    return sum(function in c.names_read() for e in catalogue for c in e.checks)


@pytest.mark.parametrize("stem", list(VARIANTS))
def test_a_looping_function_costs_about_one_call_timeout(graded, catalogue, stem):
    _, looped = graded[stem]
    function = VARIANTS[stem][0]
    assert about_one_call_timeout(looped, own_checks(catalogue, function)), (stem, looped)


@pytest.mark.parametrize("stem", list(VARIANTS))
def test_a_looping_function_loses_points_only_where_it_is_used(graded, catalogue, stem):
    solution, _ = graded["solution"]
    results, _ = graded[stem]
    function = VARIANTS[stem][0]
    expected, got = scores(solution), scores(results)
    assert expected.keys() == got.keys()
    lost = {e for e in expected if got[e] < expected[e]}
    assert lost <= allowed_losses(catalogue, function), (stem, lost)
    own = {e.id for e in catalogue if e.uses == (function,)}
    assert own and own <= lost, (stem, lost)


@pytest.mark.parametrize("stem", ["loop_num_patches", "loop_patchify", "swallowing_num_patches"])
def test_the_feedback_says_which_function_did_not_return(graded, catalogue, stem):
    results, _ = graded[stem]
    function = VARIANTS[stem][0]
    for exercise in (e.id for e in catalogue if e.uses == (function,)):
        assert DID_NOT_RETURN.format(function, CALL_TIMEOUT) in outputs(results, exercise)


def test_a_function_that_loops_on_some_inputs_gets_short_retries_until_one_fails(graded):
    results, looped = graded["grayscale_patchify"]
    text = outputs(results, "patchify")
    assert DID_NOT_RETURN.format("patchify", CALL_TIMEOUT) in text
    # retried while its retries returned (RGB images); the first that did not was its last
    assert len([seconds for seconds in looped if seconds <= RETRY_SECONDS]) <= 1, looped


def test_the_plugin_grades_a_looping_function_the_same_way(grade_with, tmp_path, catalogue,
                                                           graded):
    submission = tmp_path / "vit_exercises.py"
    log = log_file(log_folder(tmp_path), "num_patches")
    submission.write_text(with_loop(SOLUTION.read_text(), "num_patches", LOOP, log))
    tmp_path.chmod(0o755)
    result = grade_with(submission, "-q", "-p", "no:randomly")
    text = result.stdout.str()
    assert DID_NOT_RETURN.format("num_patches", CALL_TIMEOUT) in text and "patch-count" in text
    assert about_one_call_timeout(alarms(log), own_checks(catalogue, "num_patches")), alarms(log)
    # the exercises `vitgrade grade` takes points from fail (patch-count and the integration
    # checks in the shipped catalogue); every other exercise passes
    expected, got = scores(graded["solution"][0]), scores(graded["loop_num_patches"][0])
    lost = {e for e in expected if got[e] < expected[e]}
    assert "patch-count" in lost
    result.assert_outcomes(failed=len(lost), passed=len(catalogue) - len(lost))


def test_grade_all_a_looping_student_costs_the_class_about_one_call_timeout(tmp_path, catalogue):
    folder = tmp_path / "class"
    folder.mkdir()
    for i in range(6):
        shutil.copy(SOLUTION, folder / f"student{i}.py")
    function, loop = VARIANTS["loop_num_patches"]
    log = log_file(log_folder(folder), "student3")
    (folder / "student3.py").write_text(with_loop(SOLUTION.read_text(), function, loop, log))
    folder.chmod(0o755)
    out = tmp_path / "out"
    done = subprocess.run([sys.executable, "-m", "grader.cli", "grade-all", str(folder),
                           "--out", str(out), "--exercises", str(EXERCISES), "--no-progress",
                           "--jobs", "2"], cwd=ROOT, capture_output=True, text=True,
                          timeout=600, check=False)
    assert done.returncode in (0, 1), done.stderr[-2000:]
    rows = {row["Student"]: row for row in
            csv.DictReader(io.StringIO((out / "grades.csv").read_text()))}
    totals = {student: float(row["Final Points"]) for student, row in rows.items()}
    assert totals["student3"] < totals["student0"] == max(totals.values())
    # what the class paid for it
    assert about_one_call_timeout(alarms(log), own_checks(catalogue, "num_patches")), alarms(log)
    page = (out / "report.html").read_text()
    attention = page[page.index("Needs a look"):].split("<h2>")[0]  # that section only
    assert "student3" in attention and "hit a time limit" in attention
    assert "student0" not in attention
