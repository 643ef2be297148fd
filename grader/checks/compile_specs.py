"""`vitgrade compile`: compute, on the instructor's side, what grading each spec needs from the
reference, and store it as data beside the spec (compiled.py says the format).

For every call check, in the order grading plans them (the spec's cases, then the generated
ones): the inputs, the expected value or the name of the exception the call must raise, and the
output of each misconception the check names and of their combinations (mistakes.py), or that it
does not apply (it raised). Property checks need no expected value and are not compiled.
`sealed` adds the sealed multiple-choice keys of the student bundle (answer_key.py); a solution,
the stand-ins' answers (compile_stand_ins.py).
"""
from __future__ import annotations

from pathlib import Path

from grader.spec import SpecError, load_spec, spec_files
from grader.spec.loader import parse_spec
from grader.spec.model import Check, Exercise

from . import compiled
from .answer_key import seal
from .cases import CasePlans, PlannedCase
from .compile_stand_ins import needs_stand_ins, record_stand_ins
from .mistakes import combination_names
from .stand_ins import STAND_IN_TABLE
from .validate import validate_exercise


def case_entry(check: Check, planned: PlannedCase) -> dict:
    """One case as cases.compiled_cases reads it back."""
    expected, raises = planned.expectation()
    entry = {"args": list(planned.args), "kwargs": dict(planned.kwargs), "expect": expected,
             "raises": raises, "wrong": {}, "no_match": []}
    names = [known.like for known in check.misconceptions] + combination_names(check, planned)
    for like in names:
        applies, value = planned.wrong_output(like)
        if applies:
            entry["wrong"][like] = value
        elif like not in entry["no_match"]:
            entry["no_match"].append(like)
    return entry


def compile_exercise(exercise: Exercise, answers: dict | None = None,
                     solution: Path | None = None):
    """(tables, pools) of one exercise; `answers`: check name -> (correct, options) to seal;
    `solution`: the instructor's, whose calls record the stand-ins' answers
    (compile_stand_ins.py)."""
    pools = compiled.Pools()
    plans = CasePlans(use_compiled=False)  # the reference runs once per case, for both tables
    cases = {}
    for check in exercise.checks:
        if check.kind == "call":
            planned = plans.cases(exercise, check)
            cases[check.name] = compiled.encode([case_entry(check, p) for p in planned], pools)
    tables = {"cases": cases}
    if solution is not None and needs_stand_ins(exercise):
        from grader.worker import StudentWorker

        with StudentWorker(solution) as worker:
            record = record_stand_ins(exercise, worker, plans)
        tables[STAND_IN_TABLE] = {digest: compiled.encode(answer, pools)
                                  for digest, answer in sorted(record.items())}
    if answers:
        tables["answers"] = {name: compiled.encode(seal(correct, options), pools)
                             for name, (correct, options) in answers.items()}
    return tables, pools


def compile_spec(path: Path, answers: dict | None = None, solution: Path | None = None) -> Path:
    """Compile the spec file `path` (it must load and validate); returns the index written."""
    path = Path(path)
    checked = parse_spec(path.read_text(encoding="utf-8"), path.name)
    exercise = load_spec(path, checked=checked)
    problems = validate_exercise(exercise)
    if problems:
        raise problems[0]
    tables, pools = compile_exercise(exercise, answers, solution)
    return compiled.write(path, tables, pools, checked)[0]


def default_solution(exercises: Path) -> Path | None:
    """The project's solution beside its exercises folder, if there is one."""
    path = Path(exercises).resolve().parent / "solutions" / "vit_exercises.py"
    return path if path.is_file() else None


def compile_folder(folder: Path, solution: Path | None = None) -> tuple[list[Path], list[str]]:
    """Compile every spec of `folder`: (indexes written, one note per spec left out);
    `solution`: see compile_exercise."""
    written, notes = [], []
    for path in spec_files(Path(folder)):
        try:
            written.append(compile_spec(path, solution=solution))
        except SpecError as error:
            notes.append(f"{path.name}: not compiled ({error})")
    return written, notes


def stale_specs(folder: Path) -> list[str]:
    """'name.yaml: stale' for each spec of `folder` whose compiled data is not fresh."""
    out = []
    for path in spec_files(Path(folder)):
        state = compiled.state(path)
        if state != "fresh":
            out.append(f"{path.name}: {state}")
    return out
