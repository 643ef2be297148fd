"""A whole class: grade what is not graded yet, in parallel, then write the class's files.

    OUT/results/<student>.json   one record per student, written atomically as each finishes
    OUT/grades.csv               one row per student: a column per exercise and a total
    OUT/feedback/<student>.md    what the student would have seen, hidden cases summarised
    OUT/report.html              the class report
    OUT/logs/job-<n>.log         what the grading jobs printed (for the instructor)

A batch stopped halfway loses nothing: a re-run skips every student with a final record. No file
is written through a symlink (grader/report/safe_files.py): OUT's folders are checked before
anything is graded, and a link in them stops the batch with UnsafePathError.
"""
from __future__ import annotations

import os
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from grader.report.safe_files import make_folder, open_for_append
from grader.settings import LIMIT_OPTIONS, SUBMISSION_TIMEOUT

from . import DEFAULT_ID_PATTERN
from .discover import Submission, discover
from .pool import Job, Outcome, Task, run_pool
from .progress import Progress
from .records import (
    ERROR,
    FINAL,
    GRADED,
    TIMEOUT,
    Record,
    now,
    read_record,
    record_path,
    write_record,
)

JOB_GRACE_SECONDS = 15.0  # past a submission's deadline, for the job to write its record


@dataclass(frozen=True)
class BatchOptions:
    submissions: Path
    out: Path
    exercises: Path
    jobs: int = 1
    force: bool = False
    id_pattern: str = DEFAULT_ID_PATTERN
    # the worker's, by option name (settings.LIMIT_OPTIONS)
    limits: dict = field(default_factory=dict)
    submission_timeout: float = SUBMISSION_TIMEOUT
    progress: bool = True


@dataclass
class BatchResult:
    submissions: list[Submission]
    records: dict[str, Record]
    graded_now: int = 0
    skipped: int = 0
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0
    grading_seconds: float = 0.0

    @property
    def unloadable(self) -> list[str]:
        """Students graded zero because their submission could not be loaded at all."""
        return [s.student for s in self.submissions if self.records.get(s.student) is not None
                and self.records[s.student].report is not None
                and self.records[s.student].report.fatal]

    @property
    def not_graded(self) -> list[str]:
        return [s.student for s in self.submissions if self.records.get(s.student) is None
                or self.records[s.student].report is None]


def grade_all(options: BatchOptions) -> BatchResult:
    start = time.perf_counter()
    out = Path(options.out).absolute()
    results = out / "results"
    for folder in (results, out / "feedback", out / "logs"):  # refused now, not after grading
        make_folder(folder)
    submissions, notes = discover(options.submissions, options.id_pattern, exclude=(out,))
    todo = [s for s in submissions
            if options.force or not _is_final(read_record(record_path(results, s.student)))]
    result = BatchResult(submissions, {}, skipped=len(submissions) - len(todo), notes=notes)
    grading_start = time.perf_counter()
    if todo:
        # ~1 s, overlapped with grading
        threading.Thread(target=_import_plotting, daemon=True).start()
        result.graded_now = _grade(todo, options, out, results)
    result.grading_seconds = time.perf_counter() - grading_start
    result.records = {s.student: read_record(record_path(results, s.student)) for s in submissions}
    write_class_files(out, submissions, result.records)
    result.seconds = time.perf_counter() - start
    return result


def _import_plotting() -> None:
    try:
        import matplotlib.figure  # noqa: F401 - the class report's plots, imported while jobs grade
    except ImportError:
        pass


def _is_final(record: Record | None) -> bool:
    return record is not None and record.status in FINAL


def _grade(todo: list[Submission], options: BatchOptions, out: Path, results: Path) -> int:
    root = Path(options.submissions).absolute()
    tasks = [Task(s.student, str(s.path.absolute()), _shown(s.path.absolute(), root)) for s in todo]
    by_student = {s.student: s for s in todo}
    progress = Progress(len(tasks), enabled=options.progress)
    counter = iter(range(1, 1_000_000))

    def start_job() -> Job:
        log = open_for_append(out / "logs" / f"job-{next(counter)}.log")  # the child holds it
        try:
            return Job(_job_command(options, results), _job_cwd(options.exercises), _job_env(), log)
        finally:
            log.close()

    def on_outcome(outcome: Outcome) -> None:
        failed = outcome.status != GRADED or bool(outcome.message.get("fatal"))
        if outcome.status != GRADED:
            status = TIMEOUT if outcome.status == TIMEOUT else ERROR
            reason = str(outcome.message.get("reason", "unknown"))
            write_record(results, Record(outcome.task.student,
                                         str(by_student[outcome.task.student].path), status,
                                         None, reason, 0.0, now()))
        progress.update(failed)

    try:
        # The job stops a submission at its own deadline and writes its record; the pool's
        # deadline, a little later, is for a job that cannot (it is killed and replaced).
        backstop = options.submission_timeout + JOB_GRACE_SECONDS
        run_pool(tasks, max(1, options.jobs), backstop, start_job, on_outcome)
    finally:
        progress.close()
    return len(tasks)


# `python -I`: neither the working folder nor PYTHON* variables nor the user's site decide what a
# job imports (a hand-in named random.py beside it must not run as the grader). The folder
# holding this `grader` goes on the path instead, so jobs grade with the same grader.
_JOB_MAIN = ("import sys; root = sys.argv.pop(1)\n"
             "if root not in sys.path: sys.path.insert(0, root)\n"
             "from grader.batch.job import main; sys.exit(main())")


def _job_command(options: BatchOptions, results: Path) -> list[str]:
    package_root = str(Path(__file__).resolve().parents[2])
    command = [sys.executable, "-I", "-c", _JOB_MAIN, package_root,
               "--exercises", str(Path(options.exercises).absolute()),
               "--results", str(results), "--parent", str(os.getpid())]
    for option in LIMIT_OPTIONS:
        if options.limits.get(option.name) is not None:
            command += [option.flag, str(options.limits[option.name])]
    return command


def _job_cwd(exercises: Path) -> Path:
    """Where a job runs: beside an `exercises` folder (the instructor's --exercises or the
    installed one), so files its specs name are found from there; else in the grader's package.
    Never the folder grade-all was started in, which may be the class's."""
    exercises = Path(exercises).absolute()
    return exercises.parent if exercises.name == "exercises" else Path(__file__).parents[1]


def _job_env() -> dict:
    """This environment, with one BLAS thread per job (grader/process_setup.py)."""
    from grader.process_setup import single_threaded_blas

    env = dict(os.environ)
    single_threaded_blas(env)
    return env


def _shown(path: Path, root: Path) -> str:
    try:
        return str(path.relative_to(root))
    except ValueError:
        return path.name


def write_class_files(out: Path, submissions: list[Submission],
                      records: dict[str, Record | None]) -> None:
    """grades.csv, feedback/<student>.md and report.html from the records."""
    from grader.report.class_report import class_report_html
    from grader.report.csv_grades import grades_csv
    from grader.report.feedback_md import feedback_markdown
    from grader.report.outputs import write_text_atomic

    rows = []
    for submission in submissions:
        record = records.get(submission.student)
        report = record.report if record is not None else None
        why = (record.reason if record is not None
               else "not graded yet (the batch was stopped)") or record.status
        rows.append((submission.student, report, None if report is not None else why))
    exercises = list(dict.fromkeys(e.id for _, report, _ in rows if report is not None
                                   for e in report.exercises))
    write_text_atomic(out / "grades.csv", grades_csv([(s, r) for s, r, _ in rows], exercises),
                      suffix=".csv")
    for student, report, why in rows:
        write_text_atomic(out / "feedback" / f"{student}.md",
                          feedback_markdown(student, report, why), suffix=".md")
    write_text_atomic(out / "report.html", class_report_html(rows), suffix=".html")
