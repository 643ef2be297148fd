"""The one loader of exercise specs: file -> schema-checked data (spec_file.read_spec, or what
`vitgrade compile` kept of it while fresh: parsed_specs.checked_spec) -> an `Exercise` whose checks
are built by their kind (kinds/) -> every name it refers to checked. `file:line` errors.

Everything that reads specs (grading, the plugin, `check()`, `validate`, `render`, `compile`,
`dist`, grade-all) loads them here, so a spec is accepted or refused the same way everywhere,
and a refused one costs only its own exercise. `grader.load_spec`/`load_specs` are these.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

from grader.spec.errors import SpecError, unknown_name
from grader.spec.model import Exercise, ExerciseLimits
from grader.spec.parse import shown_path, spec_files

from . import course, parsed_specs, variants
from .api import SIGNATURES, StudentApi, student_api
from .course_file import opens_problems
from .kinds import build_check
from .spec_file import read_spec


def load_exercise(path: str | Path, display_path: str | None = None, *,
                  build_inputs: bool = False, checked: tuple[dict, dict] | None = None
                  ) -> Exercise:
    """One spec, loaded and validated; SpecError (file:line) for the first problem.
    `build_inputs`: also build each literal case's values; `checked`: the (data, lines)
    read_spec made of the file (compile_specs.py)."""
    exercise, problems = spec_problems(path, display_path, build_inputs=build_inputs,
                                       checked=checked)
    if problems:
        raise problems[0]
    return exercise


def load_exercises(folder: str | Path, *, build_inputs: bool = False,
                   every_problem: bool = False) -> tuple[list[Exercise], list[SpecError]]:
    """The exercises of `folder` that load and validate, by order then id, and the first
    problem of each other spec (`every_problem`: all of them, for `vitgrade validate`)."""
    exercises, errors = [], []
    api = student_api(folder)  # once: it stats every spec of the folder
    for path in spec_files(Path(folder)):
        exercise, problems = spec_problems(path, build_inputs=build_inputs, api=api)
        errors += problems if every_problem else problems[:1]
        if not problems:
            exercises.append(exercise)
    seen: dict[str, Exercise] = {}
    for exercise in list(exercises):
        if exercise.id in seen:
            errors.append(SpecError(exercise.path, exercise.line_of("id"), f"the id "
                                    f"'{exercise.id}' is already used by {seen[exercise.id].path}"))
            exercises.remove(exercise)
        else:
            seen[exercise.id] = exercise
    exercises.sort(key=lambda e: (e.order, e.id))
    return exercises, errors


def refused_spec(error: SpecError) -> tuple[str, str, str, float] | None:
    """(id, title, lecture, points) of the refused spec `error` names, read loosely: what it
    would be worth (its `points:`, else its checks', 1 each by default), so a broken spec keeps
    its points in the total as "not graded"; None when its file is not even a YAML mapping."""
    import yaml

    try:
        data = yaml.safe_load(Path(error.path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return None
    if not isinstance(data, dict):
        return None
    number = (int, float)
    checks = data.get("checks") if isinstance(data.get("checks"), list) else []
    points = data.get("points") if isinstance(data.get("points"), number) else sum(
        c["points"] if isinstance(c, dict) and isinstance(c.get("points"), number) else 1
        for c in checks)
    name = str(data.get("id") or Path(error.path).stem)
    return name, str(data.get("title") or name), str(data.get("lecture") or ""), float(points)


def spec_problems(path: str | Path, display_path: str | None = None, *,
                  build_inputs: bool = False, checked: tuple[dict, dict] | None = None,
                  api: StudentApi | None = None) -> tuple[Exercise | None, list[SpecError]]:
    """(the exercise, every problem in it); (None, [the error]) when it does not build.
    `api`: its folder's student API, when the caller has it (else looked up)."""
    path = Path(path)
    shown = display_path or shown_path(path)
    try:
        exercise = _built(path, shown, checked, api)
    except SpecError as error:
        return None, [error, *error.more]
    problems = [p for check in exercise.checks for p in check.problems(exercise, build_inputs)]
    problems += variants.unknown_placeholders(exercise.data, exercise.lines, shown)
    if build_inputs and not problems:  # `vitgrade validate`, `new`: the course's functions too
        problems = _course_problems(exercise) or _unsolvable(exercise)
    return exercise, problems + _unlisted_uses(exercise) + opens_problems(exercise)


def _built(path: Path, shown: str, checked: tuple[dict, dict] | None,
           api: StudentApi | None) -> Exercise:
    """The spec as `vitgrade compile` kept it while fresh (parsed_specs.py), else as its YAML
    reads."""
    kept = checked or parsed_specs.checked_spec(path)
    if kept is not None:
        try:
            return _exercise(*kept, shown, path, api)
        except (KeyError, TypeError, ValueError, AttributeError):
            if checked:
                raise
            # kept data that does not build (an index edited by hand): the YAML says why
    return _exercise(*read_spec(path, shown), shown, path, api)


def _exercise(data: dict, lines: dict, shown: str, path: Path,
              api: StudentApi | None) -> Exercise:
    """The exercise of the spec's data: variant 0 of it when it declares variants."""
    space = variants.space(data, lines, shown)
    exercise = _variant(variants.instantiate(data, space[0], 0), lines, shown, path, api)
    return dataclasses.replace(exercise, variants=tuple(space) if len(space) > 1 else (),
                               data=data)


def variant_exercise(exercise: Exercise, index: int) -> Exercise:
    """Variant `index` of `exercise` (itself for variant 0, or a spec without variants)."""
    if not index or not exercise.variants:
        return exercise
    data = variants.instantiate(exercise.data, exercise.variants[index], index)
    return dataclasses.replace(_rebuilt(exercise, data), variant=index)


def student_variants(exercises, secret: bytes, student_id: str, built: dict | None = None
                     ) -> list[Exercise]:
    """Each exercise as `student_id` gets it: the variant the course `secret` picks for them
    (variants.variant_index). `built`: (id, index) -> variant, kept by a caller that asks for
    many students (the driver)."""
    built = {} if built is None else built
    chosen = []
    for exercise in exercises:
        index = variants.variant_index(secret, exercise.id, student_id,
                                       len(exercise.variants or [0]))
        if (exercise.id, index) not in built:
            built[exercise.id, index] = variant_exercise(exercise, index)
        chosen.append(built[exercise.id, index])
    return chosen


def sheet_exercise(exercise: Exercise) -> Exercise:
    """What the question sheet shows of `exercise`: with variants, their parameters by name and
    none of the cases that use them (variants.unfilled)."""
    return _rebuilt(exercise, variants.unfilled(exercise.data)) if exercise.variants else exercise


def _rebuilt(exercise: Exercise, data: dict) -> Exercise:
    built = _variant(data, exercise.lines, exercise.path,
                     Path(exercise.folder, Path(exercise.path).name), exercise.checks[0].api)
    return dataclasses.replace(built, variants=exercise.variants, data=exercise.data)


def _unsolvable(exercise: Exercise) -> list[SpecError]:
    """The first variant whose cases do not build, or whose answer to a case using its
    parameters the reference cannot compute (it raises: a patch that does not divide the side)."""
    for index, values in enumerate(exercise.variants):
        each, named = variant_exercise(exercise, index), ", ".join(f"{k}={v}" for k, v in
                                                                   values.items())
        problems = [p for check in each.checks for p in check.problems(each, True)]
        for i, j in variants.placeholder_cases(exercise.data) if not problems else ():
            check = each.checks[i]
            _, raised = check.plan(each.folder)[j].expectation()
            if raised:
                problems.append(SpecError(exercise.path, check.line_of("cases", j), (
                    f"check '{check.name}', case {j + 1}: the reference raises {raised}")))
        if problems:
            return [SpecError(p.path, p.line, f"variant {index} ({named}): {p.message}; every "
                              "variant must be solvable (change variants: or the case)")
                    for p in problems[:1]]
    return []


def _variant(data: dict, lines: dict, shown: str, path: Path,
             api: StudentApi | None) -> Exercise:
    inside: dict[int, dict] = {}  # each check's lines, by the path inside it
    for where, line in lines.items():
        if len(where) >= 2 and where[0] == "checks":
            inside.setdefault(where[1], {})[where[2:]] = line
    points = _shared_points([raw.get("points") for raw in data["checks"]], data.get("points"),
                            lines, shown)
    folder = str(path.resolve().parent)
    api = api or student_api(folder)
    checks = tuple(build_check(raw, dict(
        name=raw["name"], points=share, line=lines.get(("checks", i), 0), folder=folder, api=api,
        lines=inside.get(i, {}), hidden=raw.get("hidden", False),
        visibility=raw.get("visibility", "after_published" if raw.get("hidden") else "visible"),
        hint=raw.get("hint"), feedback=raw.get("feedback"), opens=raw.get("opens")))
        for i, (raw, share) in enumerate(zip(data["checks"], points, strict=True)))
    limits = data.get("limits", {})
    return Exercise(
        id=data["id"], title=data["title"], lecture=data["lecture"], uses=tuple(data["uses"]),
        checks=checks, path=shown, question=data.get("question", ""),
        order=data.get("order", 0), call_timeout=limits.get("call_timeout"),
        limits=ExerciseLimits(**{k: v for k, v in limits.items() if k != "call_timeout"}),
        feedback=data.get("feedback"), opens=data.get("opens"), folder=folder, lines=lines,
    )


def _shared_points(given: list, total, lines: dict, shown: str) -> list[float]:
    """Checks without points share what the exercise's total leaves (1 point each, no total)."""
    fixed = sum(p for p in given if p is not None)
    free = given.count(None)
    if total is None:
        share = 1.0
    else:
        if fixed > total + 1e-9 or (not free and abs(fixed - total) > 1e-9):
            raise SpecError(shown, lines.get(("points",)),
                            f"points: {total} but the checks' points add up to {fixed:g}")
        share = (total - fixed) / free if free else 0.0
    return [share if p is None else p for p in given]


def _unlisted_uses(exercise: Exercise) -> list[SpecError]:
    """One error per check that calls or reads a student name `uses:` does not list."""
    errors = []
    for check in exercise.checks:
        unlisted = [n for n in dict.fromkeys(check.names_read()) if n not in exercise.uses]
        if unlisted:
            errors.append(SpecError(exercise.path, exercise.line_of("uses") or check.line,
                                    f"check '{check.name}' reads {', '.join(unlisted)}, which "
                                    f"uses: does not list (uses: names every student name the "
                                    f"exercise's checks call or read)"))
    return errors


def _course_problems(exercise: Exercise) -> list[SpecError]:
    """The course's functions (course.py) this spec declares or calls: the reference defines a
    declared one with the declared parameters, and each misconception a check names differs from
    the reference on one of the check's cases (else it could never be told apart)."""
    declared = course.declarations(exercise.folder)
    calls = [c for c in exercise.checks if set(c.reference_functions()) & declared.keys()]
    if not calls and all(d.spec != Path(exercise.path).name for d in declared.values()):
        return []
    try:
        reference = course.course_reference(exercise.folder)
    except SpecError as error:
        return [error]
    errors, functions = [], reference.functions if reference else {}
    for name, d in declared.items():
        function, problem = functions.get(name), None
        if d.spec != Path(exercise.path).name:
            continue
        if name in SIGNATURES:
            problem = "is already in the student API: declare a new name"
        elif function is None:
            problem = f"no {course.FOLDER}/*.py beside the specs defines it"
        elif course.required_params(function) != d.params:
            code = function.__code__
            problem = (f"params: [{', '.join(d.params)}], but {course.FOLDER}/"
                       f"{Path(code.co_filename).name}:{code.co_firstlineno} defines "
                       f"{name}({', '.join(course.required_params(function))})")
        if problem:
            errors.append(SpecError(exercise.path, d.line, f"function '{name}': {problem}"))
        errors += _built_on_problems(exercise, d, declared)
    for check in calls if not errors else ():
        errors += check.undetectable(exercise)
    return errors


def _built_on_problems(exercise: Exercise, d: course.Declared, declared: dict) -> list[SpecError]:
    """A declaration's `built_on:` names student-API functions, none built on it in turn."""
    errors, known = [], {**SIGNATURES, **declared}
    for helper, line in zip(d.built_on, d.built_on_lines, strict=True):
        problem = None
        if helper not in known:
            problem = unknown_name(exercise.path, line, "student-API function", helper, known)
            problem = problem.message
        elif cycle := _path_back(helper, d.name, declared, [d.name, helper]):
            problem = (f"{helper} is built on {d.name} ({' -> '.join(cycle)}): a function "
                       "cannot be built on itself")
        if problem:
            errors.append(SpecError(exercise.path, line, f"function '{d.name}': built_on: "
                                                         f"{problem}"))
    return errors


def _path_back(start: str, goal: str, declared: dict, path: list[str]) -> list[str] | None:
    """The chain of course declarations from `start` back to `goal`, None when there is none."""
    if start == goal:
        return path
    for helper in declared[start].built_on if start in declared else ():
        if helper not in path[1:]:
            found = _path_back(helper, goal, declared, [*path, helper])
            if found:
                return found
    return None

