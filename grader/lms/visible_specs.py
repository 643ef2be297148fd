"""Exercise specs without their hidden checks: what students may have.

A hidden check goes whole, and so do the specs' comments: they are re-written from the parsed
YAML, with the points hidden checks shared fixed on the visible ones and only the data files a
visible check names (docs/lms.md, "The student bundle"). With `seal_answers`, each check's kind
says what the bundle may not read in plain text (`sealed`: a multiple-choice check's right
answer and feedback), handed back (`answers`) for the compiled data's sealed key.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

from grader.checks.catalogue import load_exercise
from grader.checks.spec_file import read_spec
from grader.checks.variants import instantiate, unfilled, variant_index
from grader.spec import SpecError, spec_files
from grader.spec.parse import shown_path

HEADER = ("# The visible checks of {name} (written by `vitgrade dist`; hidden checks are not "
          "included).\n")


@dataclass
class VisibleSpecs:
    texts: dict[str, str] = field(default_factory=dict)  # file name -> YAML text
    data: set[str] = field(default_factory=set)  # exercises-folder paths a visible check names
    notes: list[str] = field(default_factory=list)
    # file name -> check name -> what its `sealed` kept back ((right option, {option: feedback}))
    answers: dict[str, dict] = field(default_factory=dict)


def visible_specs(folder: Path, seal_answers: bool = False,
                  student: tuple[bytes, str] | None = None) -> VisibleSpecs:
    """`student`: (course secret, student id): each spec with variants as that student's
    variant, their own numbers (a bundle for one student), else with none."""
    folder = Path(folder)
    out = VisibleSpecs()
    for path in spec_files(folder):
        try:  # the spec read once: its data is both the exercise's and what is written
            checked = read_spec(path, shown_path(path))
            exercise = load_exercise(path, checked=checked)
        except SpecError as error:
            out.notes.append(f"{path.name}: left out, it does not load ({error})")
            continue
        raw, shared = checked[0], unfilled(checked[0], shared=True)  # no variant's numbers
        if student and exercise.variants:  # that student's own numbers, no `variants:`
            secret, student_id = student
            index = variant_index(secret, exercise.id, student_id, len(exercise.variants))
            shared = instantiate(raw, exercise.variants[index], index)
        kept = []
        for check, loaded in zip(raw["checks"], exercise.checks, strict=True):
            check = next((c for c in shared["checks"] if c["name"] == check["name"]), None)
            if loaded.hidden or check is None:
                continue
            check = dict(check)
            check["points"] = _number(loaded.points)
            check.pop("hidden", None)
            check.pop("visibility", None)
            if seal_answers:
                check, secret = loaded.sealed(check)
                if secret is not None:
                    out.answers.setdefault(path.name, {})[loaded.name] = secret
            kept.append(check)
        if not kept:
            out.notes.append(f"{path.name}: left out, all its checks are hidden")
            continue
        raw = {**shared, "checks": kept}
        raw.pop("points", None)  # the total included the hidden checks' points
        out.data |= _named_data(kept, folder)
        out.texts[path.name] = HEADER.format(name=path.name) + yaml.dump(
            raw, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=100)
    return out


class _Dumper(yaml.SafeDumper):
    """Reads like a hand-written spec: text blocks as `|`, lists of plain values in flow style."""

    def ignore_aliases(self, data) -> bool:  # a spec repeated by anchors is written out in full
        return True


def _represent_str(dumper, text: str):
    style = "|" if "\n" in text else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style=style)


def _represent_list(dumper, items: list):
    flat = all(isinstance(x, (int, float, str, bool, type(None))) or (isinstance(x, list) and all(
        isinstance(y, (int, float, bool, list)) for y in x)) for x in items)
    return dumper.represent_sequence("tag:yaml.org,2002:seq", items, flow_style=flat)


_Dumper.add_representer(str, _represent_str)
_Dumper.add_representer(list, _represent_list)


def _number(x: float):
    return int(x) if float(x).is_integer() else x


def _named_data(checks: list, folder: Path) -> set[str]:
    """Paths inside `folder` that a string somewhere in `checks` names (checkpoints/tiny-vit)."""
    names = set()
    for text in _strings(checks):
        if "/" in text or "." in text:
            candidate = folder / text
            try:
                if candidate.exists() and candidate.resolve().is_relative_to(folder.resolve()):
                    names.add(Path(text).as_posix())
            except (OSError, ValueError):
                continue
    return names


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, (dict, list, tuple)):
        for v in value.values() if isinstance(value, dict) else value:
            yield from _strings(v)
