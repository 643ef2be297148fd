"""`vitgrade compile`: compute, on the instructor's side, what grading each spec needs from the
reference, and store it as data beside the spec (compiled.py says the format).

Each check says what it stores (its kind's `compiled`: a call check its planned cases, a
multiple-choice check of the student bundle its sealed key, a property check nothing); a
solution adds the stand-ins' answers (compile_stand_ins.py); the error model's mistake each
listed known-wrong variant is, where it is one, goes in the table compiled.INSTANCES.
"""
from __future__ import annotations

import json
import tempfile
from pathlib import Path

from grader.spec import SpecError, spec_files
from grader.spec.model import Exercise

from . import compiled, compiled_folder, parsed_specs, variants
from .cases import CasePlans
from .catalogue import load_exercise, variant_exercise
from .compile_stand_ins import needs_stand_ins, record_stand_ins
from .course import error_model_mistake
from .spec_file import read_spec, schema
from .stand_ins import STAND_IN_TABLE

EDITOR_SCHEMA = "schema.json"  # beside the specs: what an editor checks them with


def compile_exercise(exercise: Exercise, answers: dict | None = None,
                     solution: Path | None = None):
    """(tables, pools) of one exercise, each of its variants' checks under their own key
    (variants.table_key); `answers`: check name -> what its `sealed` kept back
    (the student bundle's); `solution`: the instructor's, whose calls record the stand-ins'
    answers (compile_stand_ins.py)."""
    pools = compiled.Pools()
    plans = CasePlans(use_compiled=False)  # the reference runs once per case, for both tables
    tables: dict[str, dict] = {"cases": {}}
    each = [variant_exercise(exercise, i) for i in range(len(exercise.variants) or 1)]
    for variant in each:
        for check in variant.checks:
            secret = (answers or {}).get(check.name)
            for table, value in check.compiled(variant, plans, secret).items():
                key = variants.table_key(variant, check.name)
                tables.setdefault(table, {})[key] = compiled.encode(value, pools)
    listed = dict.fromkeys(like for variant in each for check in variant.checks
                           for like in check.listed_variants())
    instances = {like: mistake for like in listed
                 if (mistake := error_model_mistake(like, exercise.folder or None))}
    if instances:  # the error model's mistake each listed variant is (compiled.INSTANCES)
        tables[compiled.INSTANCES] = {like: compiled.encode(mistake, pools)
                                      for like, mistake in instances.items()}
    if solution is not None:  # an empty table too: "compiled, and no helper calls"
        record: dict = {}
        if needs_stand_ins(exercise):
            from grader.worker import StudentWorker

            for source in solution_and_decompositions(solution):
                with StudentWorker(source) as worker:
                    for variant in each:
                        record_stand_ins(variant, worker, plans, record)
        tables[STAND_IN_TABLE] = {key: compiled.encode(calls, pools)
                                  for key, calls in sorted(record.items())}
    return tables, pools


def solution_and_decompositions(solution: Path):
    """The solution, then the solution with each file of `decompositions/` beside it put in
    place of its definitions (the patch embedding built on the convolution, as the lecture
    allows): the stand-ins' calls a correct submission built another allowed way makes."""
    yield solution
    folder = solution.parent / "decompositions"
    for override in sorted(folder.glob("*.py")) if folder.is_dir() else ():
        with tempfile.TemporaryDirectory() as tmp:
            combined = Path(tmp) / solution.name
            combined.write_text(solution.read_text() + "\n\n" + override.read_text())
            yield combined


def compile_spec(path: Path, answers: dict | None = None,
                 solution: Path | None = None) -> list[Path]:
    """Compile the spec file `path` (it must load and validate), and keep its parsed data with
    the folder's (parsed_specs.py); returns the files written (none while those there hold the
    same data: compiled.write, parsed_specs.write)."""
    path = Path(path)
    checked = read_spec(path, path.name)
    exercise = load_exercise(path, checked=checked)
    tables, pools = compile_exercise(exercise, answers, solution)
    written = compiled.write(path, tables, pools)
    return written + parsed_specs.write(path.parent, {path.name: parsed_specs.entry(path,
                                                                                   *checked)})


def default_solution(exercises: Path) -> Path | None:
    """The project's solution beside its exercises folder, if there is one."""
    path = Path(exercises).resolve().parent / "solutions" / "vit_exercises.py"
    return path if path.is_file() else None


def compile_folder(folder: Path, solution: Path | None = None
                   ) -> tuple[list[Path], list[Path], list[str]]:
    """Compile every spec of `folder`: (files written, files left as they were, one note per spec
    left out); `solution`: see compile_exercise. Also `folder/schema.json`, the whole schema, for
    editors (a spec's `# yaml-language-server: $schema=schema.json`)."""
    variants.ensure_secret(folder)  # the course's: which variant each student grades
    editors = Path(folder) / EDITOR_SCHEMA
    text = json.dumps(schema(), indent=1) + "\n"
    fresh = editors.is_file() and editors.read_text(encoding="utf-8") == text
    if not fresh:
        editors.write_text(text, encoding="utf-8")
    written, unchanged, notes = ([], [editors], []) if fresh else ([editors], [], [])
    specs = spec_files(Path(folder))
    for path in specs:
        try:
            wrote = compile_spec(path, solution=solution)
            written += wrote
            unchanged += [file for file in compiled.paths(path) if file not in wrote]
        except SpecError as error:
            parsed_specs.write(folder, {path.name: None})  # parsed again until it loads
            notes.append(f"{path.name}: not compiled ({error})")
    kept = parsed_specs.path_of(folder)
    written += parsed_specs.write(folder, {}, keep={path.name for path in specs})  # deleted ones
    if kept.is_file() and kept not in written:
        unchanged.append(kept)
    one_file = compiled_folder.write(folder)  # from the specs' compiled files just written
    written += one_file
    if not one_file and compiled_folder.path_of(folder).is_file():
        unchanged.append(compiled_folder.path_of(folder))
    return list(dict.fromkeys(written)), unchanged, notes  # the kept specs' file: once


def stale_specs(folder: Path) -> list[str]:
    """'name.yaml: stale' for each spec of `folder` whose compiled data is not fresh."""
    states = {path.name: compiled.state(path) for path in spec_files(Path(folder))}
    for path in spec_files(Path(folder)):  # the parsed spec kept: stale when the spec changed
        if states[path.name] == "fresh" and parsed_specs.state(path) == "stale":
            states[path.name] = "stale (its parsed spec)"
    one_file = compiled_folder.state(Path(folder))
    if one_file != "fresh":
        states[compiled_folder.NAME] = f"{one_file} (not what the specs' compiled files make)"
    editors = Path(folder) / EDITOR_SCHEMA
    if editors.is_file() and json.loads(editors.read_text(encoding="utf-8")) != schema():
        states[EDITOR_SCHEMA] = "stale (the schema changed)"
    return [f"{name}: {state}" for name, state in states.items() if state != "fresh"]
