"""Buggy submissions, built at test time from the solution and one small snippet each.

A file tests/submissions/buggy/<misconception>.py (a question's own, added later:
<exercise id>--<misconception>.py, docs/authoring.md) is not a submission but what one changes: a
docstring naming the bug, `EXPECT = {exercise id: misconception}` (the exercises that must lose
points and name it), and the top-level function(s) or `ANSWERS[key] = ...` line(s) the student got
wrong. A fixture with several bugs may also rewrite correct functions in a student's style (how
they call their helpers) and name them in `CORRECT = (...)`, and list in `ALIASES = (...)` the
names other checks give the same mistake (a property's verdict, say). `build_submission` writes
solutions/vit_exercises.py with exactly those replaced. Only the exercises whose `uses:` names a
replaced function that is not CORRECT may lose points (`affected_exercises`): the others are
graded around the broken functions with the grader's stand-ins.
"""
from __future__ import annotations

import ast
from pathlib import Path

from grader.checks.kinds import AnswerCheck

from conftest import SOLUTION, SUBMISSIONS

BUGGY = sorted((SUBMISSIONS / "buggy").glob("*.py"))
# realistic buggy ports whose mistake no hint names yet (issue 38): built the same way; their
# EXPECT maps an exercise to None where it must lose points with no mistake named
UNNAMED = sorted((SUBMISSIONS / "unnamed").glob("*.py"))
METADATA = ("EXPECT", "CORRECT", "ALIASES")


def _defined_name(node: ast.stmt) -> str | None:
    """What a top-level statement defines: a function's name or an assignment's target."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return node.name
    if isinstance(node, ast.Assign) and len(node.targets) == 1:
        return ast.unparse(node.targets[0])
    return None


def _spans(text: str) -> list[tuple[str, int, int]]:
    """(defined name, first line, last line) of each top-level definition, lines from 1."""
    out = []
    for node in ast.parse(text).body:
        name = _defined_name(node)
        if name is not None:
            first = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])
            out.append((name, first, node.end_lineno))
    return out


def fixture_metadata(snippet: Path, name: str = "EXPECT"):
    """The EXPECT (or CORRECT) of a buggy snippet, read without running it."""
    found = {}
    for node in ast.parse(snippet.read_text()).body:
        if _defined_name(node) in METADATA:
            found[_defined_name(node)] = ast.literal_eval(node.value)
    return found.get(name, {} if name == "EXPECT" else ())


def replaced_names(snippet: Path) -> list[str]:
    """The names whose definitions the snippet replaces in the solution."""
    return [name for name, _, _ in _spans(snippet.read_text()) if name not in METADATA]


def submission_text(snippet: Path, solution: Path = SOLUTION) -> str:
    """The solution's source with the snippet's definitions put in place of the solution's."""
    lines = snippet.read_text().splitlines()
    wanted = {name: lines[first - 1:last] for name, first, last in _spans(snippet.read_text())
              if name not in METADATA}
    text = solution.read_text()
    spans = [span for span in _spans(text) if span[0] in wanted]
    missing = set(wanted) - {name for name, _, _ in spans}
    if missing:
        raise ValueError(f"{snippet.name}: {solution.name} defines no {', '.join(sorted(missing))}")
    out = text.splitlines()
    for name, first, last in sorted(spans, key=lambda span: span[1], reverse=True):
        out[first - 1:last] = wanted[name]
    return "\n".join(out) + "\n"


def build_submission(snippet: Path, folder: Path) -> Path:
    """Write the buggy submission as folder/<snippet's name> (its tracebacks name that file)."""
    path = folder / snippet.name
    path.write_text(submission_text(snippet))
    return path


def of_each_kind(snippets: list[Path], per_kind: int = 2) -> list[Path]:
    """The first and the last (`per_kind` in all) of each kind of snippet, a kind being the
    functions it replaces and the exercises its EXPECT names: two such fixtures are graded along
    the same paths (which functions stand-ins answer for, which exercises lose points), only their
    mistakes differ. For what a third of the fixtures shows as well as all: the comparison of
    two graders (tests/test_bundle.py), variants (tests/test_variants.py), and that an exercise
    running none of a fixture's functions keeps full marks (tests/test_catalogue.py grades every
    fixture on the exercises that run them)."""
    kinds: dict[tuple, list[Path]] = {}
    for snippet in sorted(snippets):
        kind = (tuple(sorted(replaced_names(snippet))), tuple(sorted(fixture_metadata(snippet))))
        kinds.setdefault(kind, []).append(snippet)
    chosen = set()
    for members in kinds.values():
        chosen.update(members[:(per_kind + 1) // 2] + members[len(members) - per_kind // 2:])
    return sorted(chosen)


def affected_exercises(snippet: Path, exercises) -> set[str]:
    """Ids of the exercises that may lose points for what the snippet replaces: those whose
    `uses:` names a replaced function (not one it says is CORRECT), and those that ask for a
    replaced ANSWERS key."""
    functions, keys = set(), set()
    correct = set(fixture_metadata(snippet, "CORRECT"))
    for name in (n for n in replaced_names(snippet) if n not in correct):
        if name.startswith("ANSWERS["):
            keys.add(ast.literal_eval(ast.parse(name, mode="eval").body.slice))
        else:
            functions.add(name)
    return {exercise.id for exercise in exercises if set(exercise.uses) & functions
            or {c.key for c in exercise.checks if isinstance(c, AnswerCheck)} & keys}


def _names_each_function_reads(solution: Path = SOLUTION) -> dict[str, set[str]]:
    """Top-level function -> the solution's top-level functions its body names (calls them, or
    passes them on)."""
    tree = ast.parse(solution.read_text())
    defined = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    return {node.name: {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and n.id in defined}
            for node in tree.body if isinstance(node, ast.FunctionDef)}


def exercises_running(snippet: Path, exercises) -> set[str]:
    """Ids of the exercises that run a function the snippet replaces (one their `uses:` names, or
    one those reach in the solution), or may lose points for it (affected_exercises, EXPECT):
    each other exercise runs the solution's own code alone, whatever the snippet's mistake."""
    reads, replaced = _names_each_function_reads(), set(replaced_names(snippet))

    def reached(names) -> set[str]:
        seen, todo = set(), list(names)
        while todo:
            if (name := todo.pop()) not in seen:
                seen.add(name)
                todo.extend(reads.get(name, ()))
        return seen

    return ({exercise.id for exercise in exercises if reached(exercise.uses) & replaced}
            | affected_exercises(snippet, exercises) | set(fixture_metadata(snippet)))
