"""A spec's text: YAML -> (data, line of each value), checked against a schema, with
`file:line` errors an instructor can act on.

The schema: `schema.json` with each kind's branch (grader/checks/spec_file.py, the one reader of
a spec file). Building the `Exercise` and checking the names it refers to is the loader's job
(grader/checks/catalogue.py); this part knows only the spec's format.
"""
from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from types import SimpleNamespace

from .errors import SpecError
from .model import nearest_line

SPEC_SUFFIXES = (".yaml", ".yml")
COURSE_FILE = "course.yaml"  # the course's own settings, not a spec (grader/checks/course_file.py)
MAX_PROBLEMS = 50  # of one file


def spec_files(directory: str | Path) -> list[Path]:
    """The spec files of a folder, sorted by name."""
    directory = Path(directory)
    return sorted(p for p in directory.iterdir()
                  if p.suffix in SPEC_SUFFIXES and p.name != COURSE_FILE and p.is_file())


def parse_spec(text: str, shown: str, schema: dict) -> tuple[dict, dict]:
    """(data, {path: line}) of a spec's text, valid against `schema`, else SpecError (its first
    problem; `.more`: the others)."""
    from .yaml_lines import load_yaml_with_lines

    data, lines = load_yaml_with_lines(text, shown)
    if not isinstance(data, dict):
        raise SpecError(shown, 1, "a spec is a mapping (id:, title:, lecture:, uses:, checks:), "
                                  "not a list or a value")
    error = first_error(data, schema)
    if error is not None:
        first, *more = _every_problem(error, data, lines, shown, schema)
        first.more = more
        raise first
    return data, lines


def _every_problem(error, data: dict, lines: dict, shown: str, schema: dict) -> list[SpecError]:
    """Every schema problem of `data`, `error` (fastjsonschema's first) first, so three misspelt
    keys give three lines. The others come from jsonschema (nbformat's dependency, imported on
    this path only), which reports them all; a check with no kind or two is one problem."""
    path = tuple(int(p) if p.isdigit() else p for p in error.path[1:])
    found = {}
    for problem in [_explain(error, lines, shown, schema, path), *_others(data, lines, shown,
                                                                            schema)]:
        found.setdefault(str(problem).split(";")[0], problem)  # a key's suggestion may differ
    return list(found.values())[:MAX_PROBLEMS]


def _others(data: dict, lines: dict, shown: str, schema: dict) -> list[SpecError]:
    try:
        import jsonschema
    except ImportError:  # pragma: no cover - nbformat requires it
        return []
    try:
        errors = list(jsonschema.Draft7Validator(schema).iter_errors(data))
    except Exception:  # noqa: BLE001 - the first problem is reported whatever jsonschema does
        return []
    no_kind = {tuple(e.absolute_path) for e in errors
               if e.validator == "oneOf" and len(e.absolute_path) == 2}
    problems = []
    for e in errors:
        path = tuple(e.absolute_path)
        if any(path[:2] == check and e.validator != "oneOf" for check in no_kind):
            continue
        values = [e.instance]
        if e.validator == "additionalProperties" and isinstance(e.instance, dict):
            known = e.schema.get("properties", {})
            values = [{key: value} for key, value in e.instance.items() if key not in known]
        problems += [_explain(SimpleNamespace(  # as _explain reads fastjsonschema's errors
            rule=e.validator, definition=e.schema, value=value, message=e.message[:300],
            name=None), lines, shown, schema, path) for value in values]
    return problems


@functools.lru_cache(maxsize=4)
def validator(schema_text: str, detailed: bool = False):
    """A function that raises fastjsonschema.JsonSchemaValueException on invalid data.
    fastjsonschema (a dependency of nbformat) compiles the schema to Python, ten times faster to
    import than jsonschema; only a failing spec pays for the detailed validator."""
    import fastjsonschema

    return fastjsonschema.compile(json.loads(schema_text), detailed_exceptions=detailed)


def first_error(data, schema: dict):
    """The first violation of `schema` in `data` (a JsonSchemaValueException), or None."""
    for detailed in (False, True):
        try:
            validator(json.dumps(schema), detailed)(data)
            return None
        # JsonSchemaValueException, caught by its base: a cached validator may predate a re-import
        except ValueError as exc:
            if detailed:
                return exc
    return None  # pragma: no cover - the lean validator failed, so the detailed one does


def shown_path(path: Path) -> str:
    """The path as messages show it: relative to the working folder when inside it."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, RuntimeError):  # RuntimeError: a link that loops (graded, and refused)
        return str(path)


# --- explaining schema errors -------------------------------------------------

def _explain(error, lines: dict, shown: str, schema: dict, path: tuple) -> SpecError:
    """Turn a fastjsonschema error (at `path` of the file's data) into one line an instructor can
    act on."""
    where = _readable(path) or "the spec"
    line = nearest_line(lines, path)
    rule, definition, value = error.rule, error.definition or {}, error.value
    kinds = (tuple(b["required"][0] for b in schema["$defs"]["check"]["oneOf"])
             if path[:1] == ("checks",) and len(path) == 2 else ())
    if rule == "additionalProperties" and isinstance(value, dict):
        properties = definition.get("properties", {})
        unknown = [k for k in value if k not in properties][0]
        if unknown in kinds:  # two kinds' keys in one check
            return SpecError(shown, line, f"{where} needs exactly one of {_listed(kinds)}")
        return SpecError(shown, nearest_line(lines, path + (unknown,)),
                         f"unknown key '{unknown}' in {where}{_suggestion(unknown, properties)}")
    if rule == "required" and isinstance(value, dict):
        missing = [k for k in definition.get("required", []) if k not in value]
        return SpecError(shown, line, f"{where} is missing the key '{missing[0]}'")
    if rule == "oneOf" and kinds:
        return SpecError(shown, line, f"{where} needs exactly one of {_listed(kinds)}")
    if rule == "not" and len(path) >= 3 and path[-2] == "cases":
        return SpecError(shown, nearest_line(lines, path + ("raises",)),
                         f"{where} has both 'expect' and 'raises': keep one")
    if rule == "type":
        wanted = definition.get("type")
        return SpecError(shown, line, f"{where} must be {_article(wanted)}, "
                                      f"not {type(value).__name__} {value!r}")
    if rule == "enum":
        allowed = ", ".join(map(repr, definition["enum"]))
        return SpecError(shown, line, f"{where} must be one of {allowed}, not {value!r}")
    if rule == "pattern":
        return SpecError(shown, line, f"{where} = {value!r} does not match {definition['pattern']}")
    message = (error.message.replace(error.name, where) if error.name
               else f"{where}: {error.message}")
    return SpecError(shown, line, message)


def _suggestion(unknown: str, properties: dict) -> str:
    """'; did you mean KEY?' for the allowed key most like `unknown`, by its name or by a word
    of its description (`tolerence` -> `compare`, whose description says "tolerances")."""
    named = [(key, key) for key in properties]
    described = [(word, key) for key, rule in properties.items()
                 for word in re.findall(r"[a-z_]{4,}", str(rule.get("description", "")).lower())]
    import difflib  # only for a spec's mistake: not on the grading path

    best, ratio = None, 0.6
    for word, key in named + described:  # a key's own name wins a tie
        score = difflib.SequenceMatcher(None, str(unknown).lower(), word).ratio()
        if score > ratio:
            best, ratio, why = key, score, word != key
    if best is None:
        return f" (allowed: {', '.join(sorted(properties))})"
    about = properties[best].get("description", "") if why else ""
    return f"; did you mean '{best}'?" + (f" ({best}: {about})" if about else "")


def _listed(keys) -> str:
    quoted = [f"'{k}'" for k in keys]
    return ", ".join(quoted[:-1]) + " or " + quoted[-1]


def _readable(path: tuple) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _article(kind) -> str:
    if isinstance(kind, list):
        return " or ".join(kind)
    articles = {"integer": "an integer", "object": "a mapping", "array": "a list"}
    return articles.get(kind, f"a {kind}")

