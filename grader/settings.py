"""The grader's settings: one table of options, and the one resolver into a frozen GraderSettings.

Every entry point takes the options of OPTIONS and resolves them here, in one order: the command
line (or `check()`'s keywords), else the environment (`VITGRADE_CALL_TIMEOUT`, ...: Option.env),
else, per exercise, the spec's `limits:`, else the default (worker/limits.py, its only copy).
`resolve_settings` does the first two; `for_catalogue`, called by the driver once the specs are
loaded, the last two for every exercise. Nothing else decides; the worker enforces what it is given.
"""
from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path

from grader.worker.limits import DEFAULT_LIMITS, Limits

MAX_OUTPUT_KB = 256  # more would not fit a worker's reply (grader/worker/channel.py REPLY)
GRADESCOPE_ROOT = "/autograder"
RESULTS_JSON = "results/results.json"  # Gradescope's, under its root (lms/gradescope_autograder.py)
GRADESCOPE_RESULTS = f"{GRADESCOPE_ROOT}/{RESULTS_JSON}"
ENV_PREFIX = "VITGRADE_"
TRUE, FALSE = ("1", "true", "yes", "on"), ("", "0", "false", "no", "off")


@dataclass(frozen=True)
class Option:
    """One option: its flag, environment variable, help and checks (the same everywhere)."""
    name: str  # the argparse/pytest destination, and GraderSettings' field
    flag: str
    help: str
    metavar: str | None = None  # None: a switch
    kind: type | None = None  # a worker limit's type (validated positive), else None
    most: int | None = None  # its largest allowed value
    const: str | None = None  # the value of the flag given alone (`--feedback`: full)

    @property
    def env(self) -> str:
        """The environment variable that gives it when the command line does not."""
        return ENV_PREFIX + self.name.upper()

    def argparse_kwargs(self) -> dict:
        help = f"{self.help} [env {self.env}]"
        if self.metavar is None:
            return {"action": "store_true", "help": help}
        alone = {"nargs": "?", "const": self.const} if self.const else {}
        return {"metavar": self.metavar, "help": help, "dest": self.name, **alone}


OPTIONS = (
    Option("exercises", "--exercises", "folder of exercise specs (default: the exercises/ of "
           "this project, else the course's installed ones; with --classroom, --gradescope or "
           "--prairielearn always the installed ones)", "DIR"),
    Option("visible_only", "--visible-only", "run only the visible cases (what students see); "
           "skip the hidden ones"),
    Option("feedback", "--feedback", "how much each check's feedback tells: score, name, "
           "hint, expected or full (alone: full); it overrides the specs' and the course's "
           "levels. pytest --student prints the feedback only when given", "LEVEL", const="full"),
    Option("attempt", "--attempt", "this attempt's number, for feedback that opens after N "
           "attempts (default: Gradescope's count; on your own machine a count kept per "
           "submission, which --attempt 1 starts again)", "N"),
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
           f"(default {DEFAULT_LIMITS.submission_timeout:g}); when they run out, the checks not "
           "yet run fail with 'out of time' and the results are written as always", "SECONDS",
           float),
    Option("memory_mb", "--memory-mb", "address-space limit of the worker running student code, "
           f"in MB (default {DEFAULT_LIMITS.memory_mb})", "MB", int),
    Option("max_processes", "--max-processes", "processes and threads the worker running student "
           f"code may have at once (default {DEFAULT_LIMITS.max_processes})", "N", int),
    Option("output_kb", "--output-kb", "printed output of student code kept per call, in kB "
           f"(default {DEFAULT_LIMITS.output_kb}, at most {MAX_OUTPUT_KB})", "KB", int,
           MAX_OUTPUT_KB),
    Option("verbose", "--verbose", "also say what the grader hid from student code (as root: "
           "the reference, the specs, the solutions, its results), or why it could not"),
    Option("student_id", "--student-id", "the student's id: which variant of each exercise with "
           "variants: they grade (Gradescope's wrapper reads it from submission_metadata.json); "
           "without it, the shared version", "ID"),
    Option("file_mb", "--file-mb", "the largest file student code may write, its printed output "
           f"included, in MB (default {DEFAULT_LIMITS.file_mb})", "MB", int),
)
LIMIT_OPTIONS = tuple(option for option in OPTIONS if option.kind is not None)
FEEDBACK = next(option for option in OPTIONS if option.name == "feedback")
ATTEMPT = next(option for option in OPTIONS if option.name == "attempt")
STUDENT_HELP = ("grade this submission (a .py module or an .ipynb notebook, or a folder: the "
                "vit_exercises.py or .ipynb in it)")


@dataclass(frozen=True)
class GraderSettings:
    """One grading run's settings, resolved once (resolve_settings, then for_catalogue); the rest
    of the run reads them. The limit fields are the command line's or environment's (None: not
    given); `limits(exercise)` is what the worker gets, every layer applied."""

    student: Path | None  # None: settings for many submissions (watch, grade-all's jobs)
    exercises: Path
    exercises_origin: str = ""  # grader.spec.locate: "--exercises", "found in this project", ...
    include_hidden: bool = True
    json_out: Path | None = None
    feedback: bool = False  # print per-exercise feedback after the table (the CLI does)
    feedback_level: str | None = None  # --feedback LEVEL or VITGRADE_FEEDBACK (None: not given)
    platform: str = "local"  # where the results go: the course's default level for it applies
    course_feedback: str | None = None  # that default (course.yaml): filled by for_catalogue
    attempt: int | None = None  # this attempt's number (grader/attempts.py), None: not known
    attempt_key: str | None = None  # what a local count is kept for (default: the submission)
    due: str | None = None  # the platform's due date (Gradescope's), else course.yaml's `due:`
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
    student_id: str | None = None  # which variants (grader/checks/variants.py); None: shared
    # -- filled by for_catalogue: the worker's limits before any exercise, and for each one
    run_limits: Limits | None = None
    exercise_limits: tuple[tuple[str, Limits], ...] = ()

    def limits(self, exercise=None) -> Limits:
        """The worker's limits while `exercise` is graded (None: before any). LookupError for
        one these settings were not resolved for (a bug: the driver resolves every exercise)."""
        if exercise is None:
            return self.run_limits or Limits()
        for id, limits in self.exercise_limits:
            if id == exercise.id:
                return limits
        raise LookupError(f"no limits were resolved for the exercise {exercise.id!r}")

    def for_catalogue(self, exercises) -> GraderSettings:
        """These settings with the worker's limits resolved for the run and for each of
        `exercises` (these settings', else the spec's `limits:`, else the defaults; with what to
        hide and the course's setup code), and the course's feedback level and due date."""
        from grader.checks.course_file import course_settings
        from grader.secret_paths import hidden_paths

        given = {option.name: getattr(self, option.name) for option in LIMIT_OPTIONS}
        hide = hidden_paths(self)
        course = course_settings(self.exercises)  # course.yaml, setup.py

        def layered(spec: dict) -> Limits:
            chosen = {name: spec.get(name) if value is None else value
                      for name, value in given.items()}
            return Limits(**{k: v for k, v in chosen.items() if v is not None}, hide=hide,
                          setup=course.setup)

        return replace(self, course_feedback=course.feedback_for(self.platform),
                       due=self.due or course.due,
                       run_limits=layered({}), exercise_limits=tuple(
            (e.id, layered({"call_timeout": e.call_timeout, **asdict(e.limits)}))
            for e in exercises))

    def feedback_levels(self, exercise) -> dict:
        """{check name: (feedback level, what opens next)} of `exercise`, at this attempt and
        time (grader/report/feedback_level.py)."""
        from grader.checks.course_file import when
        from grader.report.feedback_level import Opening, check_levels

        opening = Opening(self.attempt, when(self.due))
        return check_levels(exercise, self.feedback_level, self.course_feedback, opening)

    def opening_state(self, exercises) -> str:
        """Which `opens:` steps of `exercises` are open for this run, now (feedback_level.
        opening_state); "" when a level was given (it is the level, steps or not)."""
        from grader.checks.course_file import course_settings, when
        from grader.report.feedback_level import Opening, opening_state

        if self.feedback_level:
            return ""
        due = self.due or course_settings(self.exercises).due
        return opening_state(exercises, Opening(self.attempt, when(due)))

    def to_json(self) -> str:
        """These settings as data (grade-all hands them to its jobs), limits left to resolve."""
        data = {f.name: getattr(self, f.name) for f in fields(self)
                if f.name not in ("run_limits", "exercise_limits")}
        return json.dumps(data, default=str)

    @classmethod
    def from_json(cls, text: str) -> GraderSettings:
        data = json.loads(text)
        paths = ("student", "exercises", "json_out", "prairielearn_out")
        data.update({name: Path(data[name]) for name in paths if data.get(name)})
        data["also_hidden"] = tuple(map(Path, data.get("also_hidden", ())))
        return cls(**data)


class SettingsError(ValueError):
    """A bad option value; the message names the option and where its value came from."""


def given_values(given: Callable, environ: Mapping[str, str]) -> Callable:
    """`value(name) -> (value, origin)`: the command line's (`given(name)`: None, or pytest's
    ValueError, when not given), else the environment's, else (None, "")."""
    by_name = {option.name: option for option in OPTIONS}

    def value(name: str) -> tuple:
        try:
            chosen = given(name)
        except ValueError:  # pytest's --verbose is its terminal plugin's: absent with -pno:terminal
            chosen = None
        option = by_name.get(name)
        if chosen not in (None, False) or option is None or option.env not in environ:
            return chosen, ""
        text = environ[option.env]
        if option.metavar is None:  # a switch
            if text.strip().lower() not in TRUE + FALSE:
                raise SettingsError(f"{option.flag} from {option.env} must be one of 1, true, "
                                    f"yes, 0, false, no, not {text!r}")
            return text.strip().lower() in TRUE, option.env
        return text, option.env

    return value


def checked_limit(option: Option, value, origin: str):
    """`value` as a positive number of the option's kind (None stays None); a SettingsError
    names the flag and, when it came from the environment, the variable."""
    if value is None:
        return None
    what = "number of seconds" if option.kind is float else "whole number"
    try:
        number = option.kind(value)
        if not number > 0 or (option.most is not None and number > option.most):
            raise ValueError
    except ValueError:
        bound = f" from 1 to {option.most}" if option.most else ""
        source = f" from {origin}" if origin else ""
        raise SettingsError(f"{option.flag}{source} must be a positive {what}{bound}, "
                            f"not {value!r}") from None
    return number


def feedback_level(value, origin: str) -> str | None:
    """`--feedback`'s level (None: not given); a SettingsError names where a bad one came from."""
    from grader.checks.course_file import level_problem

    if isinstance(value, str) and value.strip().lower() in TRUE + FALSE:  # when it was a switch
        return "full" if value.strip().lower() in TRUE else None
    if value is None:
        return None
    wrong = level_problem(value)
    if wrong:
        source = f" from {origin}" if origin else ""
        raise SettingsError(f"--feedback{source} {wrong}")
    return value


def attempt_number(value, origin: str) -> int | None:
    """`--attempt`'s number (None: not given); a SettingsError names where a bad one came from."""
    if value is None:
        return None
    try:
        number = int(value)
        if number < 1:
            raise ValueError
    except (TypeError, ValueError):
        source = f" from {origin}" if origin else ""
        raise SettingsError(f"--attempt{source} must be a whole number from 1 (1: the first "
                            f"attempt), not {value!r}") from None
    return number


def student_file(path: Path, shown: str | None = None) -> Path:
    """The file to grade for `path`: itself, or in a folder the file grade-all picks there
    (grader.batch.discover.submission_file). A link is graded as itself (the worker refuses it).
    A SettingsError says what a folder lacks."""
    if not path.is_dir() or path.is_symlink():
        return path
    from grader.batch.discover import TEMPLATE_STEM, submission_file

    found = submission_file(path)
    if found is None:
        raise SettingsError(f"no {TEMPLATE_STEM}.py or .ipynb in {shown or path} (nor any other "
                            ".py or .ipynb file): name the file to grade")
    return found


def resolve_settings(getoption: Callable, invoked_in: Path, environ: Mapping | None = None, *,
                     discover: bool = True) -> GraderSettings:
    """GraderSettings from the options (`getoption(name)`: None, or a ValueError as pytest's, for
    one not given), else the environment (`environ`, default os.environ). An autograder or
    grade-all (`discover=False`) never uses an `exercises/` found where it runs: that is the
    student's repository, or the class's folder."""
    from grader.spec.locate import locate_exercises

    value = given_values(getoption, os.environ if environ is None else environ)

    def given(name: str):
        return value(name)[0]

    student, explicit, json_out = given("student"), given("exercises"), given("json")
    prairielearn = given("prairielearn")
    autograding = bool(given("classroom") or given("gradescope") or prairielearn)
    exercises = locate_exercises(invoked_in / explicit if explicit else None, start=invoked_in,
                                 discover=discover and not autograding)
    if given("gradescope") and not json_out:
        json_out = GRADESCOPE_RESULTS
    level = feedback_level(*value("feedback"))
    return GraderSettings(
        student=student_file(invoked_in / student, student) if student else None,
        exercises=exercises.path, exercises_origin=exercises.origin,
        include_hidden=not given("visible_only"), feedback=bool(given("show_feedback") or level),
        feedback_level=level, attempt=attempt_number(*value("attempt")),
        attempt_key=given("attempt_key"), due=given("due"), platform=given("platform") or (
            "gradescope" if given("gradescope") else "prairielearn" if prairielearn
            else "classroom" if given("classroom") else "local"),
        json_out=(invoked_in / json_out) if json_out else None, classroom=bool(given("classroom")),
        prairielearn_out=(invoked_in / prairielearn) if prairielearn else None,
        verbose=(given("verbose") or 0) > 0,  # pytest's -v counts; -q is -1
        student_id=given("student_id") or (_prairielearn_id() if prairielearn else None),
        **{option.name: checked_limit(option, *value(option.name)) for option in LIMIT_OPTIONS})


def _prairielearn_id() -> str | None:
    from grader.lms.prairielearn_data import prairielearn_student_id  # its variant's seed

    return prairielearn_student_id()
