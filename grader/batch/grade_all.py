"""A whole class: grade what is not graded yet, in parallel, then write the class's files:
OUT/results/<student>.json (one record each, written as it finishes), grades.csv,
feedback/<student>.md, report.html and logs/job-<n>.log (docs/lms.md, "A whole class").

A re-run reuses every final record whose submission, specs and grader are unchanged
(fingerprints.py). A link in OUT's folders stops the batch before anything is graded.
"""
from __future__ import annotations

import os
import sys
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path

from grader.process_setup import single_threaded_blas
from grader.report.outputs import FEEDBACK_FOLDER
from grader.report.safe_files import make_folder, open_for_append
from grader.settings import GraderSettings
from grader.similarity.boilerplate import course_code

from . import DEFAULT_ID_PATTERN, records
from .class_files import Manifest, write_class_files
from .discover import Submission, discover
from .fingerprints import graded_with, grader_version, submission_sha256
from .pool import Job, Outcome, Task, run_pool
from .progress import Progress
from .records import ERROR, FINAL, GRADED, TIMEOUT, Record, read_record, record_path, write_record
from .shards import Shard

# why a submission is graded now, in the order they are told
NEW, RETRIED, FORCED = "new", "retried after the grader's error", "--force"
GRADER_CHANGE, SPEC_CHANGE, CHANGED = "grader change", "spec change", "changed submission"
FEEDBACK_CHANGE = "feedback opened"  # another --feedback level, or a step of opens: opened
REASONS = (NEW, CHANGED, SPEC_CHANGE, FEEDBACK_CHANGE, GRADER_CHANGE, RETRIED, FORCED)

JOB_GRACE_SECONDS = 15.0  # past a submission's deadline, for the job to write its record


@dataclass(frozen=True)
class BatchOptions:
    submissions: Path
    out: Path
    settings: GraderSettings  # resolved once (settings.resolve_settings): its jobs get it as JSON
    jobs: int = 1
    force: bool = False
    id_pattern: str = DEFAULT_ID_PATTERN
    roster: dict[str, str] | None = None  # --roster: entry -> student id (roster.py)
    progress: bool = True
    shard: Shard | None = None

    @property
    def exercises(self) -> Path:
        return self.settings.exercises


@dataclass
class BatchResult:
    submissions: list[Submission]
    records: dict[str, Record]
    graded_now: int = 0
    reused: int = 0
    why: Counter = field(default_factory=Counter)  # reason -> submissions graded for it
    removed: list[str] = field(default_factory=list)  # a record, no submission any more
    notes: list[str] = field(default_factory=list)
    seconds: float = 0.0
    grading_seconds: float = 0.0
    similarity: object = None  # the report's Similarity (similarity/pairs.py), or AT_MERGE

    @property
    def unloadable(self) -> list[str]:
        """Students graded zero because their submission could not be loaded at all."""
        return [s.student for s in self.submissions if (r := self.records.get(s.student))
                and r.report is not None and r.report.fatal]

    @property
    def not_graded(self) -> list[str]:
        return [s.student for s in self.submissions if self.records.get(s.student) is None
                or self.records[s.student].report is None]


def grade_all(options: BatchOptions) -> BatchResult:
    from grader.checks.catalogue import load_exercises
    from grader.report.labels import labels_from_specs

    start = time.perf_counter()
    out = Path(options.out).absolute()
    results = out / "results"
    for folder in (results, out / FEEDBACK_FOLDER, out / "logs"):  # refused now, not after grading
        make_folder(folder)
    everyone, notes = discover(options.submissions, options.id_pattern, exclude=(out,),
                               roster=options.roster)
    shard = options.shard
    submissions = [s for s in everyone if shard is None or shard.holds(s.student)]
    loaded, _ = load_exercises(options.exercises)  # a broken spec is reported by grading, not here
    specs, grader = graded_with(options.settings, loaded), grader_version()
    for s in (s for s in submissions if s.conflict):  # listed under "Needs a look", not graded
        write_record(results, Record(s.student, str(s.path), ERROR, None, s.conflict, 0.0,
                                     records.now(), "", specs, grader))
    why = {s.student: regrade_reason(read_record(record_path(results, s.student)),
                                     submission_sha256(s.path), specs, grader, options.force)
           for s in submissions if not s.conflict}
    todo = [s for s in submissions if why.get(s.student) is not None]
    result = BatchResult(submissions, {}, reused=len(why) - len(todo), notes=notes,
                         why=Counter(why[s.student] for s in todo))
    grading_start = time.perf_counter()
    if todo:
        result.graded_now = _grade(todo, options, out, results, (specs, grader))
    result.grading_seconds = time.perf_counter() - grading_start
    result.records = {s.student: read_record(record_path(results, s.student)) for s in submissions}
    known = {s.student for s in everyone}
    removed = {r.student: r for r in map(read_record, sorted(results.glob("*.json")))
               if r is not None and r.student not in known
               and (shard is None or shard.holds(r.student))}
    result.removed = sorted(removed)
    result.notes += [removed_note(student) for student in result.removed]
    course_prints, course_files = course_code(options.exercises)
    manifest = Manifest(str(shard) if shard else None, specs, grader,
                        tuple(s.student for s in submissions), tuple(result.removed),
                        labels_from_specs(loaded).to_json(), tuple(course_files),
                        tuple(course_prints))
    result.similarity = write_class_files(out, manifest, result.records, removed)
    result.seconds = time.perf_counter() - start
    return result


def regrade_reason(record: Record | None, content: str, specs: str, grader: str,
                   force: bool = False) -> str | None:
    """Why the submission must be graded now (REASONS), or None: its record can be reused."""
    if record is None:
        return NEW
    if force:
        return FORCED
    if record.status not in FINAL:
        return RETRIED
    if record.grader_version != grader:
        return GRADER_CHANGE
    if record.specs_sha256 != specs:  # the specs' digest, then what graded_with adds to it
        same_specs = record.specs_sha256.split("+")[0] == specs.split("+")[0]
        return FEEDBACK_CHANGE if same_specs else SPEC_CHANGE
    return CHANGED if record.submission_sha256 != content else None


def summary_line(result: BatchResult) -> str:
    """`15 submissions: 12 reused, 3 regraded (changed submission) in 1.2 s`, or
    `200 submissions: spec change: all 200 regraded in 20.1 s`."""
    total, graded = len(result.submissions), result.graded_now
    held = sum(1 for s in result.submissions if s.conflict)  # listed under "Needs a look"
    why = ", ".join(f"{result.why[r]} {r}" for r in REASONS if result.why[r])
    took = f"in {result.grading_seconds:.1f} s"
    if held:
        return (f"{total} submissions: {result.reused} reused, {graded} graded"
                + (f" ({why}) {took}" if graded else "") + f", {held} not graded (Needs a look)")
    if graded == 0:
        return f"{total} submissions: all {total} reused (unchanged since graded)"
    if graded == total and len(+result.why) == 1:
        return f"{total} submissions: {why.split(' ', 1)[1]}: all {total} graded {took}"
    return f"{total} submissions: {result.reused} reused, {graded} graded ({why}) {took}"


def similarity_line(s) -> str:
    """`similar code: 2 pairs of submissions listed in report.html (advice for a person, never a
    grade)`; `s`: the Similarity of the report, AT_MERGE (a shard's), or None."""
    if s is None:
        return "similar code: not compared"
    if isinstance(s, str):
        return f"similar code: {s}"
    count = len(s.pairs) + s.more
    found = (f"{count} pair{'s' if count != 1 else ''} of submissions listed in report.html"
             if count else "no pair of submissions is unusually similar")
    return f"similar code: {found} (advice for a person, never a grade)"


def removed_note(student: str) -> str:
    return (f"results/{student}.json: {student} has no submission in the class folder any more; "
            "the record is kept, its row in grades.csv has no grade")


def _grade(todo: list[Submission], options: BatchOptions, out: Path, results: Path,
           versions: tuple[str, str]) -> int:
    root = Path(options.submissions).absolute()
    paths = [s.path.absolute() for s in todo]  # shown as the class folder names them
    tasks = [Task(s.student, str(p), str(p.relative_to(root)) if p.is_relative_to(root) else p.name)
             for s, p in zip(todo, paths, strict=True)]
    by_student = {s.student: s for s in todo}
    progress = Progress(len(tasks), enabled=options.progress)
    counter = iter(range(1, 1_000_000))
    env = dict(os.environ)
    single_threaded_blas(env)  # one BLAS thread per job (grader/process_setup.py)
    # Jobs run beside an `exercises` folder (the instructor's --exercises or the installed one),
    # so files its specs name are found from there; else in the grader's package. Never the
    # folder grade-all was started in, which may be the class's.
    exercises = Path(options.exercises).absolute()
    cwd = exercises.parent if exercises.name == "exercises" else Path(__file__).parents[1]

    def start_job() -> Job:
        log = open_for_append(out / "logs" / f"job-{next(counter)}.log")  # the child holds it
        try:
            return Job(_job_command(options, results), cwd, env, log)
        finally:
            log.close()

    def on_outcome(outcome: Outcome) -> None:
        failed = outcome.status != GRADED or bool(outcome.message.get("fatal"))
        if outcome.status != GRADED:
            status = TIMEOUT if outcome.status == TIMEOUT else ERROR
            reason = str(outcome.message.get("reason", "unknown"))
            path = by_student[outcome.task.student].path
            # no fingerprints: the coordinator never parses a student's file (a job does)
            write_record(results, Record(outcome.task.student, str(path), status, None, reason,
                                         0.0, records.now(), submission_sha256(path), *versions))
        progress.update(failed)

    try:
        # The job stops a submission at its own deadline and writes its record; the pool's
        # deadline, a little later, is for a job that cannot (it is killed and replaced).
        backstop = options.settings.limits().submission_timeout + JOB_GRACE_SECONDS
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
    # hidden from each worker (grader/secret_paths.py): every student's results and feedback,
    # and the others' submissions (its own folder stays visible)
    settings = replace(options.settings, exercises=Path(options.exercises).absolute(),
                       also_hidden=(results.parent, Path(options.submissions).absolute()))
    return [sys.executable, "-I", "-c", _JOB_MAIN, package_root, "--settings",
            settings.to_json(), "--results", str(results), "--parent", str(os.getpid())]
