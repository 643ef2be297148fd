"""Which submissions a folder holds, and whose they are: each file or folder directly inside
SUBMISSIONS_DIR (hidden entries aside), its student id taken from its name by --id-pattern
(`student_id`; an entry it does not match is skipped, and said so), the file graded inside a
folder chosen by `submission_file`, which Gradescope's run_autograder uses too. Two entries share
an id only when the pattern gives both the same text (the newer is kept); an id that is not its
text verbatim ends in ~ and 8 hex digits of its text's sha256, which no verbatim id holds.
"""
from __future__ import annotations

import hashlib
import os
import re
import unicodedata
from dataclasses import dataclass, replace
from pathlib import Path

from . import DEFAULT_ID_PATTERN
from .roster import rostered

SUFFIXES = (".py", ".ipynb")
TEMPLATE_STEM = "vit_exercises"           # what the student template is called
IGNORED_DIRS = {"__pycache__", ".ipynb_checkpoints", "__MACOSX", "node_modules"}
MAX_DEPTH = 16  # folders below a student's own that are looked into for the file to grade


@dataclass(frozen=True)
class Submission:
    student: str      # safe as a file name
    path: Path        # what the grader loads (a .py, an .ipynb, or whatever the student handed in)
    entry: Path       # the file or folder in SUBMISSIONS_DIR
    conflict: str = ""  # why it is not graded: another student's entry has its id


class IdPatternError(ValueError):
    """--id-pattern is not a valid regular expression."""


def discover(folder: str | Path, id_pattern: str = DEFAULT_ID_PATTERN,
             exclude: tuple[Path, ...] = (), roster: dict[str, str] | None = None
             ) -> tuple[list[Submission], list[str]]:
    """(submissions sorted by student, notes on skipped entries). `roster` (roster.py): each
    entry's student id, in place of what --id-pattern takes from its name."""
    try:
        pattern = re.compile(id_pattern)
    except re.error as exc:
        raise IdPatternError(f"--id-pattern {id_pattern!r} is not a regular expression: "
                             f"{exc}") from None
    # realpath, not Path.resolve: a looping link among the entries must not stop the class
    excluded = {os.path.realpath(p) for p in exclude}
    found: dict[str, Submission] = {}
    raw: dict[str, str] = {}  # id -> the text the pattern gave
    clash: dict[str, list[str]] = {}  # id -> entries of two or more students
    notes = []
    for entry in sorted(Path(folder).iterdir()):
        if entry.name.startswith(".") or os.path.realpath(entry) in excluded:
            continue
        text = id_text(entry.name, pattern)
        if roster is not None:
            text = rostered(roster, entry.name, text)
            if text is None:
                notes.append(f"{entry.name}: skipped, it is not in --roster")
                continue
        student = None if text is None else student_id(text)
        if student is None:
            notes.append(f"{entry.name}: skipped, its name does not match --id-pattern "
                         f"{id_pattern!r}")
            continue
        # a link is graded as itself (the worker refuses it), never followed into a folder
        path = submission_file(entry) if entry.is_dir() and not entry.is_symlink() else entry
        submission = Submission(student, path or entry, entry)
        if raw.setdefault(student, text) != text or student in clash:  # two students, one id
            clash.setdefault(student, [found[student].entry.name]).append(entry.name)
            submission = replace(found[student], conflict=f"{' and '.join(clash[student])} have "
                                 "the same id: neither is graded; rename one and run again")
        elif student in found and _mtime(found[student].path) == _mtime(submission.path):
            clash.setdefault(student, [found[student].entry.name]).append(entry.name)
            submission = replace(found[student], conflict=f"{' and '.join(clash[student])} are "
                                 "two submissions of one student, neither newer: neither is "
                                 "graded; keep one and run again")
        elif student in found:
            older, newer = sorted([found[student], submission], key=lambda s: _mtime(s.path))
            notes.append(f"{older.entry.name}: skipped, {newer.entry.name} is a newer submission "
                         f"of {student}")
            submission = newer
        found[student] = submission
    notes += [f"{student}: {found[student].conflict}" for student in clash]
    return sorted(found.values(), key=lambda s: s.student), notes


def id_text(name: str, pattern: re.Pattern) -> str | None:
    """What --id-pattern takes from `name` (None: no match, or an empty id)."""
    match = pattern.search(name)
    if match is None:
        return None
    return (match["id"] if "id" in match.groupdict() else match[1] if match.re.groups
            else match[0]) or None


def student_id(text: str) -> str:
    """`text` if it is a safe file name (feedback/<id>.md, results/<id>.json), else a safe
    version of it (accents dropped, other characters `_`) + `~` + 8 hex digits of its sha256:
    two texts never get one id unless the digits collide."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    safe = (re.sub(r"[^A-Za-z0-9._@+-]", "_", plain).strip(".") or "_")[:120]
    if safe == text:
        return safe
    return f"{safe[:111]}~{hashlib.sha256(text.encode('utf-8', 'surrogatepass')).hexdigest()[:8]}"


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
