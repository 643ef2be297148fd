"""The grader's settings: one table of options, and one resolver into a frozen GraderSettings.

`vitgrade grade`, the pytest plugin (`pytest --student`), `watch`, grade-all's jobs, `check()`
(its keywords) and the Gradescope wrapper take the same options, from OPTIONS, and resolve them
here: the command line (every entry point has one), else, per exercise, the spec's `limits:`,
else the default (worker/limits.py, the only place a default is written).
`GraderSettings.limits(exercise)` is that last step; nothing else decides between them.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from grader.worker.limits import DEFAULT_LIMITS, Limits

MAX_OUTPUT_KB = 256  # more would not fit a worker's reply (grader/worker/channel.py REPLY)
SUBMISSION_TIMEOUT = DEFAULT_LIMITS.submission_timeout
GRADESCOPE_ROOT = "/autograder"
RESULTS_JSON = "results/results.json"  # Gradescope's, under its root (lms/gradescope_autograder.py)
GRADESCOPE_RESULTS = f"{GRADESCOPE_ROOT}/{RESULTS_JSON}"


@dataclass(frozen=True)
class Option:
    name: str  # the argparse/pytest destination
    flag: str
    help: str
    metavar: str | None = None  # None: a switch
    kind: type | None = None  # a worker limit's type (validated positive), else None
    most: int | None = None  # its largest allowed value

    def argparse_kwargs(self) -> dict:
        if self.metavar is None:
            return {"action": "store_true", "help": self.help}
        return {"metavar": self.metavar, "help": self.help, "dest": self.name}


OPTIONS = (
    Option("exercises", "--exercises", "folder of exercise specs (default: the exercises/ of "
           "this project, else the course's installed ones; with --classroom, --gradescope or "
           "--prairielearn always the installed ones)", "DIR"),
    Option("visible_only", "--visible-only", "run only the visible cases (what students see); "
           "skip the hidden ones"),
    Option("feedback", "--feedback", "after the score table, print the feedback of every "
           "exercise that lost points"),
    Option("json", "--json", "write Gradescope-format results to this file", "OUT"),
    Option("gradescope", "--gradescope", "write Gradescope results to "
           f"{GRADESCOPE_RESULTS} (or to --json OUT)"),
    Option("classroom", "--classroom", "write GitHub Classroom results (base64 JSON) to "
           "$GITHUB_OUTPUT as result=..."),
    Option("prairielearn", "--prairielearn", "write PrairieLearn external-grader results to this "
           "file", "OUT"),
    Option("call_timeout", "--call-timeout", "seconds one call of a student function may take "
           f"(default {DEFAULT_LIMITS.call_timeout:g}); then the function running fails at once "
           "from then on", "SECONDS", float),
    Option("load_timeout", "--load-timeout", "seconds for loading the submission "
           f"(default {DEFAULT_LIMITS.load_timeout:g}); "
           "top-level code is stopped after a third of it", "SECONDS", float),
    Option("submission_timeout", "--submission-timeout", "seconds for the whole submission "
           f"(default {SUBMISSION_TIMEOUT:g}); when they run out, the checks not yet run fail "
           "with 'out of time' and the results are written as always", "SECONDS", float),
    Option("memory_mb", "--memory-mb", "address-space limit of the worker running student code, "
           f"in MB (default {DEFAULT_LIMITS.memory_mb})", "MB", int),
    Option("max_processes", "--max-processes", "processes and threads the worker running student "
           f"code may have at once (default {DEFAULT_LIMITS.max_processes})", "N", int),
    Option("output_kb", "--output-kb", "printed output of student code kept per call, in kB "
           f"(default {DEFAULT_LIMITS.output_kb}, at most {MAX_OUTPUT_KB})", "KB", int,
           MAX_OUTPUT_KB),
    Option("verbose", "--verbose", "also say what the grader hid from student code (as root: "
           "the reference, the specs, the solutions, its results), or why it could not"),
    Option("file_mb", "--file-mb", "the largest file student code may write, its printed output "
           f"included, in MB (default {DEFAULT_LIMITS.file_mb})", "MB", int),
)
LIMIT_OPTIONS = tuple(option for option in OPTIONS if option.kind is not None)
STUDENT_HELP = ("grade this submission (a .py module or an .ipynb notebook, or a folder: the "
                "vit_exercises.py or .ipynb in it)")


@dataclass(frozen=True)
class GraderSettings:
    """One grading run's settings, resolved once (resolve_settings); the rest of the run reads
    them. The limits here are the command line's (None: not given)."""

    student: Path | None  # None: settings for many submissions (watch, grade-all's jobs)
    exercises: Path
    exercises_origin: str = ""  # grader.spec.locate: "--exercises", "found in this project", ...
    include_hidden: bool = True
    json_out: Path | None = None
    feedback: bool = False  # print per-exercise feedback after the table (the CLI does)
    call_timeout: float | None = None
    load_timeout: float | None = None
    submission_timeout: float | None = None
    memory_mb: int | None = None
    max_processes: int | None = None
    output_kb: int | None = None
    file_mb: int | None = None
    classroom: bool = False  # write GitHub Classroom output
    prairielearn_out: Path | None = None
    verbose: bool = False  # say what was hidden from student code (grader/secret_paths.py)
    also_hidden: tuple[Path, ...] = ()  # more to hide from student code (grade-all: its --out,
    # the class's submissions but the student's own folder; grader/secret_paths.py)

    def limits(self, exercise=None) -> Limits:
        """The worker's limits (all but `hide`) while `exercise` is graded (None: before any):
        these settings' (the command line), else the spec's `limits:`, else the defaults."""
        spec = {} if exercise is None else {"call_timeout": exercise.call_timeout,
                                            **asdict(exercise.limits)}
        chosen = {option.name: getattr(self, option.name) for option in LIMIT_OPTIONS}
        chosen = {name: spec.get(name) if given is None else given
                  for name, given in chosen.items()}
        return Limits(**{name: value for name, value in chosen.items() if value is not None})


class SettingsError(ValueError):
    """A bad option value; the message names the option."""


def checked_limits(values: Callable) -> dict:
    """The worker limits among `values(name)`, each a positive number of its kind (None when not
    given); a SettingsError names the flag of a bad one."""
    limits = {}
    for option in LIMIT_OPTIONS:
        given = value = values(option.name)
        if value is not None:
            what = "number of seconds" if option.kind is float else "whole number"
            try:
                value = option.kind(value)
                if value <= 0 or (option.most is not None and value > option.most):
                    raise ValueError
            except ValueError:
                bound = f" from 1 to {option.most}" if option.most else ""
                raise SettingsError(f"{option.flag} must be a positive {what}{bound}, "
                                    f"not {given!r}") from None
        limits[option.name] = value
    return limits


def student_file(path: Path) -> Path:
    """The file to grade for `path`: itself, or in a folder the file grade-all picks there
    (grader.batch.discover.submission_file). A link is graded as itself (the worker refuses it).
    A SettingsError says what a folder lacks."""
    if not path.is_dir() or path.is_symlink():
        return path
    from grader.batch.discover import TEMPLATE_STEM, submission_file

    found = submission_file(path)
    if found is None:
        raise SettingsError(f"no {TEMPLATE_STEM}.py or .ipynb in {path} (nor any other .py or "
                            ".ipynb file): name the file to grade")
    return found


def resolve_settings(getoption: Callable, invoked_in: Path) -> GraderSettings:
    """GraderSettings from the options (`getoption(name)`: None, or a ValueError as pytest's, for
    one not given). A SettingsError names a bad value.

    An autograder (--classroom, --gradescope, --prairielearn) grades with --exercises or the
    installed specs, never an `exercises/` found where it runs: that is the student's repository.
    """
    from grader.spec.locate import locate_exercises

    def given(name: str):
        try:
            return getoption(name)
        except ValueError:  # pytest's --verbose is its terminal plugin's: absent with -pno:terminal
            return None

    student, explicit, json_out = given("student"), given("exercises"), given("json")
    prairielearn = given("prairielearn")
    autograding = bool(given("classroom") or given("gradescope") or prairielearn)
    exercises = locate_exercises(invoked_in / explicit if explicit else None, start=invoked_in,
                                 discover=not autograding)
    if given("gradescope") and not json_out:
        json_out = GRADESCOPE_RESULTS
    return GraderSettings(
        student=student_file(invoked_in / student) if student else None,
        exercises=exercises.path,
        exercises_origin=exercises.origin,
        include_hidden=not given("visible_only"),
        json_out=(invoked_in / json_out) if json_out else None,
        feedback=bool(given("feedback")),
        classroom=bool(given("classroom")),
        prairielearn_out=(invoked_in / prairielearn) if prairielearn else None,
        verbose=(given("verbose") or 0) > 0,  # pytest's -v counts; -q is -1
        also_hidden=tuple(map(Path, given("hide") or ())),  # grade-all's jobs: its --out
        **checked_limits(given),
    )

