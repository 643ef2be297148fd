"""The course's own student-API functions, kept in its exercises folder, not in the grader:

    <exercises>/some-step.yaml      function: {name: sincos_positions, params: [n, d], description}
    <exercises>/reference/*.py      def sincos_positions(n, d): ...   (plain numpy)
                                    MISCONCEPTIONS = {"sincos_swapped": sincos_swapped}

A spec's `function:` declares the name, its parameters, a line for the student API's list and
(`built_on:`) the student-API functions it calls; the reference files define it and its
known-wrong variants. A file calls a shipped function imported from grader.reference, and
another file's by name (each module sees the others' functions), so that what it computes is
what the stand-ins' answers compose to. The reference files are secrets like
the specs (secret_paths.py hides the whole exercises folder; the student bundle leaves them out,
its compiled data holds what grading needs from them): they are loaded only here, in the grading
process, by importlib from their file (never a folder on sys.path), and each is loaded once while
it is unchanged. `reference_function` and `wrong_implementation` look the shipped reference and
the course's up alike.
"""
from __future__ import annotations

import functools
import hashlib
import importlib.util
import re
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from grader.spec.errors import SpecError

FOLDER = "reference"  # <exercises>/reference/*.py
DECLARES = re.compile(rb"^function:", re.MULTILINE)  # only such specs are read for declarations


class Declared(NamedTuple):
    """One course function as a spec declares it."""
    name: str
    params: tuple[str, ...]
    description: str
    spec: str   # the spec file's name, and the line of its `function:`
    line: int
    built_on: tuple[str, ...] = ()   # the student-API functions it calls, as declared
    built_on_lines: tuple[int, ...] = ()


class CourseReference(NamedTuple):
    """What the course's reference files define: every top-level function by name, and the
    known-wrong variants their MISCONCEPTIONS dicts name."""
    functions: dict[str, Callable]
    misconceptions: dict[str, Callable]


def declarations(folder: str | Path | None) -> dict[str, Declared]:
    """The functions the specs of `folder` declare, by name (the first spec's, if two do)."""
    if not folder or not Path(folder).is_dir():
        return {}
    from grader.spec.parse import spec_files

    return _declarations(*((str(p), *_stamp(p)) for p in spec_files(folder)))


@functools.lru_cache(maxsize=8)
def _declarations(*specs) -> dict[str, Declared]:
    from .spec_file import read_spec

    found: dict[str, Declared] = {}
    for path, *_ in specs:
        path = Path(path)
        try:
            if not DECLARES.search(path.read_bytes()):
                continue
            # its YAML, not its compiled index: whether that is fresh depends on these
            data, lines = read_spec(path, path.name)
        except (OSError, SpecError):
            continue  # the loader says what is wrong with that spec
        declared, line = data["function"], lines.get(("function",), 1)
        helpers = declared.get("built_on", [])
        found.setdefault(declared["name"], Declared(
            declared["name"], tuple(declared["params"]), declared["description"], path.name,
            line, tuple(helpers),
            tuple(lines.get(("function", "built_on", i), line) for i in range(len(helpers)))))
    return found


def reference_files(folder: str | Path | None) -> list[Path]:
    """The course's reference files, sorted; none without a folder (the student bundle)."""
    if not folder:
        return []
    return sorted(p for p in (Path(folder) / FOLDER).glob("*.py") if p.is_file())


def course_reference(folder: str | Path | None) -> CourseReference | None:
    """The course's reference of `folder`, loaded (None: it has no reference files); SpecError
    naming the file for one that does not load."""
    files = reference_files(folder)
    if not files:
        return None
    return _loaded(*((str(p), *_stamp(p)) for p in files))


@functools.lru_cache(maxsize=8)
def _loaded(*files) -> CourseReference:
    functions, misconceptions, modules = {}, {}, []
    for path, *_ in files:
        shown = Path(*Path(path).parts[-3:]).as_posix()  # exercises/reference/x.py
        name = "vitgrade_course_" + hashlib.sha256(path.encode()).hexdigest()[:12]
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(module)
        except Exception as error:  # noqa: BLE001 - the instructor's code: say where, not crash
            raise SpecError(shown, getattr(error, "lineno", None),
                            f"the course's reference does not load: "
                            f"{type(error).__name__}: {error}") from None
        for key, value in vars(module).items():
            if callable(value) and getattr(value, "__module__", None) == name:
                functions.setdefault(key, value)
        for key, value in dict(getattr(module, "MISCONCEPTIONS", {})).items():
            misconceptions.setdefault(key, value)
        modules.append(module)
    for module in modules:  # a file calls another's functions by name, without an import
        for key, value in functions.items():
            vars(module).setdefault(key, value)
    return CourseReference(functions, misconceptions)


def required_params(function: Callable) -> tuple[str, ...]:
    """A function's parameters without a default, in order (what a spec's `params:` declares)."""
    import inspect

    return tuple(p.name for p in inspect.signature(function).parameters.values()
                 if p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD))


def _stamp(path: Path) -> tuple:
    try:
        info = Path(path).stat()
        return info.st_mtime_ns, info.st_size
    except OSError:
        return None, None


def reference_function(name: str, folder: str | Path | None = None) -> Callable:
    """The reference of the student-API function `name`: the shipped one, else the course's
    (KeyError when neither has it)."""
    if (course := course_reference(folder)) and name in declarations(folder):
        return course.functions[name]
    from grader.reference import REFERENCE

    return REFERENCE[name]


def wrong_implementation(like: str, folder: str | Path | None = None) -> Callable:
    """The known-wrong variant `like` (or a combination of shipped ones, a+b): the course's
    first, then the shipped ones; KeyError for neither."""
    course = course_reference(folder)
    if course is not None and like in course.misconceptions:
        return course.misconceptions[like]
    from grader.reference.misconceptions import wrong_implementation as shipped

    return shipped(like)


def error_model_mistake(like: str, folder: str | Path | None = None) -> str | None:
    """The error model's mistake ("op:...") the known-wrong variant `like` is registered as (an
    `instance`, reference/misconceptions.py), else None; None too in a grader without the
    reference (the student bundle reads it from the compiled data: compile_specs.py)."""
    try:
        implementation = wrong_implementation(like, folder)
    except (KeyError, ImportError, SpecError):  # a course file that does not load: said elsewhere
        return None
    mistake = getattr(implementation, "mistake", None)
    return mistake if isinstance(mistake, str) and mistake.startswith("op:") else None
