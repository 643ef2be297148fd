"""Which submissions a folder holds, and whose they are: each file or folder directly inside
SUBMISSIONS_DIR (hidden entries aside), its student id taken from its name by --id-pattern
(`student_id`; an entry it does not match is skipped, and said so), the file graded inside a
folder chosen by `submission_file`, which Gradescope's run_autograder uses too.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

from . import DEFAULT_ID_PATTERN

SUFFIXES = (".py", ".ipynb")
TEMPLATE_STEM = "vit_exercises"           # what the student template is called
IGNORED_DIRS = {"__pycache__", ".ipynb_checkpoints", "__MACOSX", "node_modules"}
MAX_DEPTH = 16  # folders below a student's own that are looked into for the file to grade


@dataclass(frozen=True)
class Submission:
    student: str      # safe as a file name
    path: Path        # what the grader loads (a .py, an .ipynb, or whatever the student handed in)
    entry: Path       # the file or folder in SUBMISSIONS_DIR


class IdPatternError(ValueError):
    """--id-pattern is not a valid regular expression."""


def discover(folder: str | Path, id_pattern: str = DEFAULT_ID_PATTERN,
             exclude: tuple[Path, ...] = ()) -> tuple[list[Submission], list[str]]:
    """(submissions sorted by student, notes on skipped entries)."""
    try:
        pattern = re.compile(id_pattern)
    except re.error as exc:
        raise IdPatternError(f"--id-pattern {id_pattern!r} is not a regular expression: "
                             f"{exc}") from None
    # realpath, not Path.resolve: a looping link among the entries must not stop the class
    excluded = {os.path.realpath(p) for p in exclude}
    found: dict[str, Submission] = {}
    notes = []
    for entry in sorted(Path(folder).iterdir()):
        if entry.name.startswith(".") or os.path.realpath(entry) in excluded:
            continue
        student = student_id(entry.name, pattern)
        if student is None:
            notes.append(f"{entry.name}: skipped, its name does not match --id-pattern "
                         f"{id_pattern!r}")
            continue
        # a link is graded as itself (the worker refuses it), never followed into a folder
        path = submission_file(entry) if entry.is_dir() and not entry.is_symlink() else entry
        submission = Submission(student, path or entry, entry)
        if student in found:
            older, newer = sorted([found[student], submission], key=lambda s: _mtime(s.path))
            notes.append(f"{older.entry.name}: skipped, {newer.entry.name} is a newer submission "
                         f"of {student}")
            submission = newer
        found[student] = submission
    return sorted(found.values(), key=lambda s: s.student), notes


def student_id(name: str, pattern: re.Pattern) -> str | None:
    match = pattern.search(name)
    if match is None:
        return None
    raw = match["id"] if "id" in match.groupdict() else match[1] if match.re.groups else match[0]
    return safe_name(raw) if raw else None


def safe_name(text: str) -> str:
    """`text` usable as a file name on any system (feedback/<id>.md, results/<id>.json)."""
    return (re.sub(r"[^A-Za-z0-9._@+-]", "_", text).strip(".") or "_")[:120]


def submission_file(folder: str | Path) -> Path | None:
    """The file to grade in a student's folder, whatever they named it (None: there is none):
    of its .py and .ipynb files, the most recently modified of those named like the template
    (vit_exercises.*), else of those at the top of the folder, else of any."""
    folder = Path(folder)
    candidates = [p for p in folder_entries(folder) if p.suffix.lower() in SUFFIXES
                  and not p.is_symlink() and p.is_file()]
    for group in ([p for p in candidates if p.stem == TEMPLATE_STEM],
                  [p for p in candidates if p.parent == folder],
                  candidates):
        if group:
            return max(group, key=lambda p: (_mtime(p), -len(p.parts), p.suffix == ".ipynb"))
    return None


def folder_entries(folder: Path) -> list[Path]:
    """What a student's `folder` holds, at most MAX_DEPTH folders down: hidden entries and cache
    folders left out, links listed but never followed. Iterative: Path.rglob recurses, and a
    folder nested 2,000 deep exhausted the stack of grade-all's coordinator."""
    found, stack = [], [(Path(folder), 0)]
    while stack:
        current, depth = stack.pop()
        try:
            entries = list(os.scandir(current))
        except OSError:
            continue
        for entry in entries:
            if entry.name.startswith(".") or entry.name in IGNORED_DIRS:
                continue
            found.append(Path(entry.path))
            if depth < MAX_DEPTH and entry.is_dir(follow_symlinks=False):
                stack.append((Path(entry.path), depth + 1))
    return found


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0
