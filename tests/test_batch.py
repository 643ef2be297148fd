"""`vitgrade grade-all`: a whole class, good, buggy, broken and hostile, graded; nothing lost when
stopped."""
from __future__ import annotations

import csv
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import nbformat
import pytest
from buggy_submissions import build_submission

from grader import load_specs
from grader.batch.discover import discover, submission_file
from grader.batch.pool import Job, PoolError, Task, run_pool
from grader.batch.progress import Progress
from grader.batch.records import GRADED, read_record, report_from_json, report_to_json

from conftest import EXERCISES, ROOT, SOLUTION, SUBMISSIONS, TEMPLATE


def total_points(folder: Path) -> float:
    exercises, errors = load_specs(folder)
    assert not errors
    return sum(e.points for e in exercises)


def grade_all(submissions: Path, out: Path, specs: Path, *extra: str,
              **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "grader.cli", "grade-all", str(submissions),
                           "--out", str(out), "--exercises", str(specs), "--no-progress", *extra],
                          cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
                          **kwargs)


def csv_rows(out: Path) -> dict[str, dict]:
    return {row["Student"]: row
            for row in csv.DictReader(io.StringIO((out / "grades.csv").read_text()))}


def notebook(source: str) -> str:
    return nbformat.writes(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source)]))


@pytest.fixture(scope="module")
def class_folder(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("class")
    solution = SOLUTION.read_text()
    (folder / "alice.py").write_text(solution)
    bob = folder / "bob"
    (bob / ".ipynb_checkpoints").mkdir(parents=True)
    (bob / "vit_exercises.py").write_text(solution.replace("return (H // P) * (W // P)",
                                                           "return (H - P + 1) * (W - P + 1)"))
    (bob / "helper.py").write_text("X = 1\n")
    (bob / ".ipynb_checkpoints" / "vit_exercises-checkpoint.py").write_text(
        "this is not what bob handed in\n")
    (folder / "carol.py").write_text(TEMPLATE.read_text())
    (folder / "dave.py").write_text("def num_patches(H, W, P)\n    return 1\n")  # syntax error
    (folder / "erin.py").write_text("while True:\n    pass\n")                  # loops at import
    (folder / "frank.py").write_text("import sys\nsys.exit(3)\n")              # exits at import
    (folder / "gina.txt").write_text("I did it on paper.\n")                    # not Python
    # loops when called
    (folder / "hank.py").write_text("def num_patches(H, W, P):\n    while True:\n        pass\n")
    (folder / "ivan.ipynb").write_text(notebook(solution))
    (folder / ".DS_Store").write_text("")
    return folder


@pytest.fixture(scope="module")
def graded_class(class_folder, specs, tmp_path_factory):
    out = tmp_path_factory.mktemp("out")
    done = grade_all(class_folder, out, specs, "--jobs", "2", "--call-timeout", "0.5",
                     "--load-timeout", "2")
    return done, out


STUDENTS = {"alice", "bob", "carol", "dave", "erin", "frank", "gina", "hank", "ivan"}


def test_every_student_of_a_hostile_class_is_graded(graded_class, specs):
    done, out = graded_class
    assert done.returncode == 0, done.stdout + done.stderr
    records = {p.stem: read_record(p) for p in (out / "results").glob("*.json")}
    assert set(records) == STUDENTS and all(r.status == GRADED for r in records.values())
    top = total_points(specs)
    totals = {s: float(row["Final Points"]) for s, row in csv_rows(out).items()}
    assert set(totals) == STUDENTS
    assert totals["alice"] == totals["ivan"] == top          # a module and a notebook, both right
    assert 0 < totals["bob"] < top  # buggy, graded from his folder's vit_exercises.py
    for student in ("carol", "dave", "erin", "frank", "gina", "hank"):
        assert totals[student] == 0, student
    assert records["erin"].report.load_problems  # its loop was stopped (or the whole load gave up)
    assert ("SyntaxError" in records["dave"].report.fatal
            and "not a Python module" in records["gina"].report.fatal)


def test_the_class_gets_feedback_files_and_a_report(graded_class):
    _, out = graded_class
    assert {p.stem for p in (out / "feedback").glob("*.md")} == STUDENTS
    assert "You counted overlapping stride-1 windows" in (out / "feedback" / "bob.md").read_text()
    page = (out / "report.html").read_text()
    # the misconception by its spec title and function, never its internal name
    assert "<td>overlapping stride-1 windows</td><td>num_patches</td>" in page
    assert ">overlapping_windows_count<" not in page and "Needs a look" in page
    needs_a_look = page.split("Needs a look", 1)[1].split("<h2>", 1)[0]
    for student in ("dave", "gina"):
        assert f"<td>{student}</td>" in needs_a_look


def test_force_grades_again_what_was_graded(graded_class, class_folder, specs):
    _, out = graded_class
    before = (out / "results" / "alice.json").stat().st_mtime_ns
    subset = class_folder.parent / "subset"
    subset.mkdir(exist_ok=True)
    shutil.copy(class_folder / "alice.py", subset / "alice.py")
    done = grade_all(subset, out, specs, "--force")
    assert "1 submissions: --force: all 1 graded in" in done.stdout
    assert (out / "results" / "alice.json").stat().st_mtime_ns != before


def processes_mentioning(text: str) -> list[int]:
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if text in (entry / "cmdline").read_bytes().decode(errors="replace"):
                    pids.append(int(entry.name))
            except OSError:
                continue
    return pids


@pytest.mark.skipif(not Path("/proc").is_dir(),
                    reason="reads /proc to see that no grading process is left")
def test_a_killed_batch_loses_nothing_and_the_rerun_finishes_the_rest(specs, tmp_path):
    folder, out = tmp_path / "class", tmp_path / "out"
    folder.mkdir()
    slow = "import time\ntime.sleep(0.5)\n" + SOLUTION.read_text()
    for i in range(6):
        (folder / f"student{i}.py").write_text(slow)
    command = [sys.executable, "-m", "grader.cli", "grade-all", str(folder), "--out", str(out),
               "--exercises", str(specs), "--jobs", "1", "--no-progress"]
    batch = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 60
    while len(list((out / "results").glob("*.json"))) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    batch.send_signal(signal.SIGKILL)
    batch.wait()
    deadline = time.monotonic() + 60  # only waits
    # the jobs die with their coordinator
    while processes_mentioning(str(out)) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert processes_mentioning(str(out)) == []
    kept = {p.name: (p.stat().st_ino, p.stat().st_mtime_ns)
            for p in (out / "results").glob("*.json")}
    assert 2 <= len(kept) < 6
    assert all(read_record(out / "results" / name) is not None for name in kept)  # whole files only
    done = grade_all(folder, out, specs, "--jobs", "1")
    left = 6 - len(kept)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{len(kept)} reused, {left} graded ({left} new)" in done.stdout
    after = {p.name: (p.stat().st_ino, p.stat().st_mtime_ns)
             for p in (out / "results").glob("*.json")}
    assert len(after) == 6 and all(after[name] == kept[name] for name in kept)
    assert len(csv_rows(out)) == 6


def test_a_submission_over_its_time_budget_is_stopped_with_a_record_and_the_batch_goes_on(
        specs, tmp_path):
    folder, out = tmp_path / "class", tmp_path / "out"
    folder.mkdir()
    (folder / "a_stuck.py").write_text("import time\ntime.sleep(600)\n")
    (folder / "b_good.py").write_text(SOLUTION.read_text())
    # not waited for: the batch ends (within grade_all's 120 s) and says it was stopped
    done = grade_all(folder, out, specs, "--jobs", "1", "--load-timeout", "1000",
                     "--submission-timeout", "3")
    assert done.returncode == 0, done.stderr
    stuck = read_record(out / "results" / "a_stuck.json")
    assert stuck.status == GRADED and stuck.report.score == 0
    assert "out of time" in stuck.report.fatal
    assert read_record(out / "results" / "b_good.json").report.score == total_points(specs)
    assert "out of time" in (out / "report.html").read_text()


def test_jobs_that_cannot_start_stop_the_batch_instead_of_looping(tmp_path):
    def broken_job() -> Job:
        return Job([sys.executable, "-c", "raise SystemExit(1)"], tmp_path, dict(os.environ),
                   subprocess.DEVNULL)

    outcomes = []
    with pytest.raises(PoolError, match="ended before they were ready"):
        run_pool([Task("alice", "/nowhere/alice.py", "alice.py")], 1, 10, broken_job,
                 outcomes.append)
    assert outcomes == []


# --- the pieces ------------------------------------------------------------------------------

def test_student_ids_come_from_names_by_the_pattern(tmp_path):
    for name in ("smith_1234_vit_exercises.py", "jones_5678_vit_exercises.ipynb", "notes.txt"):
        (tmp_path / name).write_text("")
    submissions, notes = discover(tmp_path, r"_(?P<id>\d+)_")
    assert [s.student for s in submissions] == ["1234", "5678"]
    assert any("notes.txt" in note for note in notes)


def test_two_submissions_of_one_student_keep_the_newer(tmp_path):
    (tmp_path / "alice.py").write_text("old")
    (tmp_path / "alice.ipynb").write_text("new")
    os.utime(tmp_path / "alice.py", (1, 1))
    submissions, notes = discover(tmp_path)
    assert [s.path.name for s in submissions] == ["alice.ipynb"] and "alice.py" in notes[0]


def test_the_file_graded_in_a_folder_is_found_whatever_its_name(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "helper.py").write_text("")
    (tmp_path / "my homework (1).py").write_text("")
    assert submission_file(tmp_path).name == "my homework (1).py"
    (tmp_path / "sub" / "vit_exercises.ipynb").write_text("")
    assert submission_file(tmp_path).name == "vit_exercises.ipynb"
    (tmp_path / "empty").mkdir()
    assert submission_file(tmp_path / "empty") is None


def test_a_record_keeps_the_whole_report(specs, tmp_path):
    from grader.driver import Driver
    from grader.settings import GraderSettings

    grader = Driver(GraderSettings(None, specs))
    try:
        report = grader.grade(SOLUTION, shown="alice.py").report
    finally:
        grader.close()
    again = report_from_json(json.loads(json.dumps(report_to_json(report))))
    assert again == report


def test_cases_planned_for_one_student_grade_the_next_ones_the_same(tmp_path):
    from grader.driver import Driver
    from grader.settings import GraderSettings
    from grader.worker.zygote_handle import Zygote

    eps_outside = build_submission(SUBMISSIONS / "buggy" / "layer_norm_eps_outside.py", tmp_path)
    grader = Driver(GraderSettings(None, EXERCISES), Zygote())  # the course specs: ~300 cases
    try:
        first = grader.grade(SOLUTION).report
        buggy = grader.grade(eps_outside).report
        assert grader.zygote.alive
        again = grader.grade(SOLUTION).report
        assert again.score == first.score == first.max_score
        assert scores(grader.grade(eps_outside).report) == scores(buggy)
    finally:
        grader.close()


def scores(report) -> list:
    return [(e.id, c.name, c.status, c.score, c.message)
            for e in report.exercises for c in e.checks]


def test_without_tqdm_a_plain_counter_shows_done_failed_and_time_left(monkeypatch):
    monkeypatch.setitem(sys.modules, "tqdm", None)
    stream = io.StringIO()
    progress = Progress(2, stream=stream)
    progress.update(failed=False)
    progress.update(failed=True)
    progress.close()
    assert stream.getvalue().splitlines() == ["graded 1/2, 0 failed, about 0 s left",
                                              "graded 2/2, 1 failed, about 0 s left"]


KILLED_JOB = '''
import os, sys, time
from pathlib import Path
from grader.batch.pool import Job
from grader.worker import linux

linux.prctl(linux.PR_SET_CHILD_SUBREAPER, 1)  # as run_pool makes the coordinator
pidfile = Path(sys.argv[1])
daemon = (
    "import os, sys, time\\n"
    "if os.fork(): os._exit(0)\\n"  # a double fork and a session of its own: out of the group
    "os.setsid()\\n"
    "if os.fork(): os._exit(0)\\n"
    f"open({str(pidfile)!r}, 'w').write(str(os.getpid()))\\n"
    "time.sleep(600)\\n"
)
job = Job([sys.executable, "-c", daemon + ""], Path.cwd(), dict(os.environ), sys.stderr)
job.process.wait()  # the job's own process is gone; its daemon is not
while not pidfile.exists() or not pidfile.read_text():
    time.sleep(0.01)
pid = int(pidfile.read_text())
os.kill(pid, 0)  # running
job.kill()
deadline = time.monotonic() + 30  # only waits: kill() sweeps (kills and reaps) before it returns
while Path(f"/proc/{pid}").exists() and time.monotonic() < deadline:
    time.sleep(0.01)
if Path(f"/proc/{pid}").exists():
    print("still running")
    os.kill(pid, 9)
else:
    print("gone")
'''


def test_a_killed_job_leaves_no_daemon_of_a_submission_running(tmp_path):
    """A job killed at the pool's deadline takes its zygote with it, so the zygote's own sweep
    never runs: the coordinator, a subreaper, sweeps what the tree left."""
    done = subprocess.run([sys.executable, "-c", KILLED_JOB, str(tmp_path / "daemon.pid")],
                          capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "gone", done.stdout + done.stderr


# --- one job's students, one after another: each graded as if alone -----------------------

FRESH = """
import json, sys
from grader.batch.records import report_to_json
from grader.driver import Driver
from grader.settings import GraderSettings
from grader.worker.zygote_handle import Zygote
grader = Driver(GraderSettings(None, sys.argv[1]), Zygote())
try:
    print(json.dumps(report_to_json(grader.grade(sys.argv[2]).report)))
finally:
    grader.close()
"""


def feedback(report) -> list:
    """What a student reads of each check: its verdict, points, hint and the mistake named."""
    return [(e.id, c.name, c.status, c.score, c.misconception, c.hint_kind, c.hint)
            for e in report.exercises for c in e.checks]


def test_a_job_grades_each_student_as_a_fresh_process_would(tmp_path):
    """The state a grade-all job keeps from one student to the next (planned cases and the
    outputs of known-wrong variants on them, the search verdicts, the compiled rewrites and
    their values, the stand-ins' oracle) changes no one's feedback. Interleaved heads first
    made the no-causal-mask check of a one-head attention name "attention_heads_interleaved+
    attention_one_head": another check's combination, computed on its planned case, was taken
    for one of its own (issue 38). Two files with the same LayerNorm mistake share the search's
    verdicts; their broken layer_norm is graded around with stand-ins; the same file twice."""
    from grader.driver import Driver
    from grader.settings import GraderSettings
    from grader.worker.zygote_handle import Zygote

    names = ["attention_heads_interleaved", "attention_ignores_heads", "layer_norm_eps_outside",
             "annotated_eps_outside_std_relu_mlp", "attention_ignores_heads"]
    paths = {n: build_submission(SUBMISSIONS / "buggy" / f"{n}.py", tmp_path) for n in names}
    grader = Driver(GraderSettings(None, EXERCISES), Zygote())  # as grader/batch/job.py does
    try:
        in_turn = [feedback(grader.grade(paths[n]).report) for n in names]
    finally:
        grader.close()
    for name, got in zip(names, in_turn, strict=True):
        fresh = subprocess.run([sys.executable, "-c", FRESH, str(EXERCISES), str(paths[name])],
                               capture_output=True, text=True, check=True)
        alone = feedback(report_from_json(json.loads(fresh.stdout.splitlines()[-1])))
        assert got == alone, name
