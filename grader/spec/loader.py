"""Load exercise specs: YAML -> schema check -> `Exercise`, with `file:line` errors.

`load_specs` never stops at a bad file: it returns the good exercises and one
`SpecError` per bad file, so one typo costs one exercise, not the whole run.
"""
from __future__ import annotations

import difflib
import functools
import hashlib
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from .errors import SpecError
from .model import (
    Case,
    Check,
    Compare,
    Exercise,
    ExerciseLimits,
    Generate,
    Misconception,
    nearest_line,
)

SPEC_SUFFIXES = (".yaml", ".yml")
DEFAULT_TOLERANCE = {"rtol": 1e-5, "atol": 1e-6}


def spec_files(directory: str | Path) -> list[Path]:
    """The spec files of a folder, sorted by name."""
    directory = Path(directory)
    return sorted(p for p in directory.iterdir() if p.suffix in SPEC_SUFFIXES and p.is_file())


def load_specs(directory: str | Path, load: Callable[[Path], Exercise] | None = None
               ) -> tuple[list[Exercise], list[SpecError]]:
    """Every spec in `directory`: (exercises sorted by order then id, errors); `load`: how one
    file is loaded (default load_spec)."""
    exercises, errors = [], []
    for path in spec_files(directory):
        try:
            exercises.append((load or load_spec)(path))
        except SpecError as exc:
            errors.append(exc)
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


def load_spec(path: str | Path, display_path: str | None = None,
              checked: tuple[dict, dict] | None = None) -> Exercise:
    """One spec file as an `Exercise`; raises SpecError naming file:line. `checked`: the
    (data, lines) `parse_spec` made of this file's bytes, kept by `vitgrade compile`
    (checks/compiled.py), so that a cold run parses no YAML and compiles no schema."""
    path = Path(path)
    shown = display_path or _display(path)
    if checked is None:
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise SpecError(shown, None, f"cannot read the spec: {exc}") from None
        checked = parse_spec(text, shown)
    data, lines = checked
    return replace(_build_exercise(data, lines, shown), folder=str(path.resolve().parent))


def parse_spec(text: str, shown: str) -> tuple[dict, dict]:
    """(data, {path: line}) of a spec's text, valid against the schema, else SpecError."""
    from .schema import first_error
    from .yaml_lines import load_yaml_with_lines

    data, lines = load_yaml_with_lines(text, shown)
    if not isinstance(data, dict):
        raise SpecError(shown, 1, "a spec is a mapping (id:, title:, lecture:, uses:, checks:), "
                                  "not a list or a value")
    error = first_error(data)
    if error is not None:
        raise _explain(error, data, lines, shown)
    return data, lines


@functools.cache
def parser_version() -> str:
    """A hash of what parse_spec's answer depends on (this folder's code and schema): data it
    gave under another version is parsed again."""
    digest = hashlib.sha256()
    folder = Path(__file__).parent
    for source in sorted([*folder.glob("*.py"), folder / "schema.json"]):
        digest.update(source.name.encode() + b"\0" + source.read_bytes() + b"\0")
    return digest.hexdigest()[:32]


def _display(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


# --- building -----------------------------------------------------------------

def _build_exercise(data: dict, lines: dict, shown: str) -> Exercise:
    inside: dict[int, dict] = {}  # each check's lines, by the path inside it
    for path, line in lines.items():
        if len(path) >= 2 and path[0] == "checks":
            inside.setdefault(path[1], {})[path[2:]] = line
    checks = [_build_check(raw, inside.get(i, {}), lines.get(("checks", i), 0))
              for i, raw in enumerate(data["checks"])]
    checks = _share_points(checks, data.get("points"), lines, shown)
    limits = data.get("limits", {})
    return Exercise(
        id=data["id"], title=data["title"], lecture=data["lecture"], uses=tuple(data["uses"]),
        checks=tuple(checks), path=shown, question=data.get("question", ""),
        order=data.get("order", 0), call_timeout=limits.get("call_timeout"),
        limits=ExerciseLimits(**{k: v for k, v in limits.items() if k != "call_timeout"}),
        lines=lines,
    )


def _build_check(raw: dict, inside: dict, line: int) -> dict:
    """Keyword arguments for `Check`, points still possibly None; `inside`: its lines by the path
    inside it, `line`: its own."""
    kwargs = dict(
        name=raw["name"], points=raw.get("points"), line=line, lines=inside,
        hidden=raw.get("hidden", False),
        visibility=raw.get("visibility", "after_published" if raw.get("hidden") else "visible"),
        hint=raw.get("hint"),
    )
    if "call" in raw:
        kwargs.update(
            call=raw["call"], reference=raw.get("reference"),
            cases=tuple(_build_case(c) for c in raw.get("cases", [])),
            generate=(Generate(**{"count": 10, "seed": 0, **raw["generate"]})
                      if "generate" in raw else None),
            compare=_build_compare(raw.get("compare")),
            misconceptions=tuple(Misconception(**m) for m in raw.get("misconceptions", [])),
            integration=raw.get("integration", False),
        )
    elif "answer" in raw:
        answer = raw["answer"]
        kwargs.update(answer_key=answer["key"], answer_correct=answer["correct"],
                      answer_options=dict(answer["options"]))
    else:
        kwargs.update(property_name=raw["property"], options=dict(raw.get("options", {})),
                      seed=raw.get("seed", 0), integration=raw.get("integration", False))
    return kwargs


def _build_case(raw: dict) -> Case:
    return Case(
        args=tuple(raw["args"]), kwargs=dict(raw.get("kwargs", {})), expect=raw.get("expect"),
        has_expect="expect" in raw, raises=raw.get("raises"), hint=raw.get("hint"),
    )


def _build_compare(raw) -> Compare | None:
    if raw is None:
        return None
    if isinstance(raw, str):
        raw = {"mode": raw}
    return Compare(**{**DEFAULT_TOLERANCE, **raw})


def _share_points(checks: list[dict], total, lines: dict, shown: str) -> list[Check]:
    """Checks without points share what the exercise's total leaves (1 point each, no total)."""
    fixed = sum(c["points"] for c in checks if c["points"] is not None)
    free = [c for c in checks if c["points"] is None]
    if total is None:
        share = 1.0
    else:
        if fixed > total + 1e-9 or (not free and abs(fixed - total) > 1e-9):
            raise SpecError(shown, lines.get(("points",)),
                            f"points: {total} but the checks' points add up to {fixed:g}")
        share = (total - fixed) / len(free) if free else 0.0
    return [Check(**{**c, "points": share if c["points"] is None else c["points"]}) for c in checks]


# --- explaining schema errors -------------------------------------------------

def _explain(error, data, lines: dict, shown: str) -> SpecError:
    """Turn a fastjsonschema error into one line an instructor can act on."""
    path = tuple(int(p) if p.isdigit() else p for p in error.path[1:])
    where = _readable(path) or "the spec"
    line = nearest_line(lines, path)
    rule, definition, value = error.rule, error.definition or {}, error.value
    if rule == "additionalProperties" and isinstance(value, dict):
        allowed = sorted(definition.get("properties", {}))
        unknown = [k for k in value if k not in allowed][0]
        close = difflib.get_close_matches(str(unknown), allowed, n=1)
        suggestion = (f"; did you mean '{close[0]}'?" if close
                      else f" (allowed: {', '.join(allowed)})")
        return SpecError(shown, nearest_line(lines, path + (unknown,)),
                         f"unknown key '{unknown}' in {where}{suggestion}")
    if rule == "required" and isinstance(value, dict):
        missing = [k for k in definition.get("required", []) if k not in value]
        return SpecError(shown, line, f"{where} is missing the key '{missing[0]}'")
    if rule == "oneOf" and path[:1] == ("checks",) and len(path) == 2:
        return SpecError(shown, line,
                         f"{where} needs exactly one of 'call', 'answer' or 'property'")
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
    message = error.message.replace(error.name, where) if error.name else error.message
    return SpecError(shown, line, message)


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

