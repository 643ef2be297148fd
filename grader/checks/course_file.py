"""The course's own settings: `course.yaml` in the exercises folder (not a spec: spec_files skips
it), read in the grading process only (the folder is hidden from student code).

    # exercises/course.yaml
    feedback:                 # the feedback level per platform (docs/spec.md, "Feedback levels")
      local: full             # vitgrade grade, pytest --student, watch, check()
      gradescope: hint
      prairielearn: expected
      classroom: name
      grade-all: full

`feedback: hint` gives every platform one level. A platform not named gets `full`. Each bad key
or value is one `course.yaml:line: message` (a spec error of the run, and of `vitgrade validate`).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path

from grader.spec.errors import SpecError
from grader.spec.parse import COURSE_FILE, shown_path

LEVELS = ("score", "name", "hint", "expected", "full")
# where a run's results go (settings.GraderSettings.platform)
PLATFORMS = ("local", "gradescope", "prairielearn", "classroom", "grade-all")
KEYS = ("feedback", "due")
DUE = "due"  # `after: due`: the platform's due date (Gradescope's), else course.yaml's `due:`
SETUP_FILE = "setup.py"  # the course's setup code, run before each submission (course_setup)
SETUP_MOST = 256 * 2**10  # bytes: it goes to the worker in its start request (zygote: 1 MB)


@dataclass(frozen=True)
class CourseSettings:
    """What course.yaml sets: feedback levels per platform, setup code, the due date."""
    feedback: dict = field(default_factory=dict)  # platform -> level
    problems: tuple = ()  # SpecError, one per bad key or value
    setup: tuple[str, str] | None = None  # setup.py: (file name, source), course_setup
    due: str | None = None  # `due:`, an ISO date and time: when `after: due` opens

    def feedback_for(self, platform: str) -> str | None:
        """The course's level on `platform` (None: it sets none)."""
        return self.feedback.get(platform)


def level_problem(value) -> str | None:
    """What is wrong with `value` as a feedback level (None: it is one)."""
    if isinstance(value, str) and value in LEVELS:
        return None
    return f"must be one of {', '.join(LEVELS)}, not {value!r}"


def course_settings(folder: str | Path) -> CourseSettings:
    """The settings of `folder`'s course.yaml (none when it has no such file) and its setup.py."""
    setup, problems = course_setup(folder)
    settings = _course_yaml(folder)
    return replace(settings, setup=setup, problems=settings.problems + problems)


def _course_yaml(folder: str | Path) -> CourseSettings:
    path = Path(folder) / COURSE_FILE
    if not path.is_file():
        return CourseSettings()
    from grader.spec.yaml_lines import load_yaml_with_lines  # only then: grading needs no YAML
    shown = shown_path(path)
    try:
        data, lines = load_yaml_with_lines(path.read_text(encoding="utf-8"), shown)
    except SpecError as error:
        return CourseSettings(problems=(error,))
    except (OSError, UnicodeDecodeError) as error:
        return CourseSettings(problems=(SpecError(shown, None, f"cannot read it ({error})"),))
    if not isinstance(data, dict):
        return CourseSettings(problems=(SpecError(shown, 1, "the course's settings are a mapping "
                                                  "(feedback: ...), not a list or a value"),))
    problems = [SpecError(shown, lines.get((key,)), f"unknown key {key!r}{_nearest(key, KEYS)}")
                for key in data if key not in KEYS]
    due = data.get("due")
    if due is not None and when(due) is None:
        problems.append(SpecError(shown, lines.get(("due",)), f"due {DATE_PROBLEM}, not {due!r}"))
        due = None
    feedback, line = data.get("feedback"), lines.get(("feedback",))
    chosen = {}
    if isinstance(feedback, str) or feedback is None:
        wrong = feedback is not None and level_problem(feedback)
        if wrong:
            problems.append(SpecError(shown, line, f"feedback {wrong}"))
        elif feedback is not None:
            chosen = dict.fromkeys(PLATFORMS, feedback)
    elif isinstance(feedback, dict):
        for platform, level in feedback.items():
            where = lines.get(("feedback", platform), line)
            if platform not in PLATFORMS:
                problems.append(SpecError(shown, where, f"feedback: unknown platform "
                                          f"{platform!r}{_nearest(platform, PLATFORMS)}"))
            elif wrong := level_problem(level):
                problems.append(SpecError(shown, where, f"feedback: {platform} {wrong}"))
            else:
                chosen[platform] = level
    else:
        problems.append(SpecError(shown, line, "feedback is a level (feedback: hint) or a level "
                                  "per platform (feedback: {local: full, gradescope: hint})"))
    return CourseSettings(chosen, tuple(problems), due=due)


def course_setup(folder: str | Path) -> tuple[tuple[str, str] | None, tuple]:
    """((file name, source) of `folder`'s setup.py, else None; its problems). It is the course's
    code that runs in the worker before each submission, in its namespace (docs/spec.md, "Setup
    code"), and goes to the worker as data: the worker never reads the exercises folder."""
    path = Path(folder) / SETUP_FILE
    if not path.is_file():
        return None, ()
    shown = shown_path(path)
    try:
        source = path.read_bytes()
    except OSError as error:
        return None, (SpecError(shown, None, f"cannot read it ({error.strerror})"),)
    if len(source) > SETUP_MOST:
        return None, (SpecError(shown, None, f"the setup code is {len(source)} bytes, more than "
                                f"the {SETUP_MOST} the worker takes: build its data from a "
                                "seeded generator, or keep it smaller"),)
    try:
        compile(source, shown, "exec", dont_inherit=True)
    except (SyntaxError, ValueError) as error:
        line = getattr(error, "lineno", None)
        return None, (SpecError(shown, line, f"{type(error).__name__}: "
                                f"{getattr(error, 'msg', error)}"),)
    return (SETUP_FILE, source.decode("utf-8", "replace")), ()


DATE_PROBLEM = ("must be an ISO date and time in quotes, such as \"2026-12-10T23:59:00+00:00\" "
                "(UTC when it names no zone)")


def when(value) -> datetime | None:
    """`value` (an ISO date and time, a string) as an aware datetime (UTC when it names no zone),
    else None."""
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.fromisoformat(value.strip())
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def opens_problems(exercise) -> list[SpecError]:
    """One error per `opens:` date (of the exercise or a check) that is neither `due` nor a date."""
    found = [(exercise.opens, exercise.line_of)] + [(check.opens, check.line_of)
                                                    for check in exercise.checks]
    problems = []
    for opens, line_of in found:
        for level, rule in (opens or {}).items():
            after = rule.get("after")
            if after is not None and after != DUE and when(after) is None:
                problems.append(SpecError(exercise.path, line_of("opens", level, "after"),
                                          f"opens: {level}: after {DATE_PROBLEM}, or due, "
                                          f"not {after!r}"))
    return problems


def _nearest(word, known) -> str:
    import difflib  # only for a course file's mistake: not on the grading path

    near = difflib.get_close_matches(str(word), known, n=1)
    return f"; did you mean {near[0]!r}?" if near else f" (one of: {', '.join(known)})"
