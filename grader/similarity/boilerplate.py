"""The course's own code, which students share by design: the template (`student_template/`)
and the instructor's solution (`solutions/`). Their fragments are never evidence of copying.

They are looked for beside the exercises folder graded with (a course's repository:
exercises/, solutions/, student_template/) and beside the grader package (a checkout of this
project); what was found is named in the report.
"""
from __future__ import annotations

from pathlib import Path

from .code import submission_fingerprints

FOLDERS = ("student_template", "solutions")
MAX_FILES = 200


def course_code(exercises: str | Path) -> tuple[list[int], list[str]]:
    """(sorted fingerprints of every function in the course's code, the files as shown)."""
    roots = dict.fromkeys([Path(exercises).absolute().parent,
                           Path(__file__).resolve().parents[2]])
    prints: set[int] = set()
    shown: list[str] = []
    for root in roots:
        for folder in FOLDERS:
            if not (root / folder).is_dir():
                continue
            files = sorted(p for p in (root / folder).rglob("*")
                           if p.suffix in (".py", ".ipynb") and not any(
                               part.startswith(".") or part == "__pycache__"
                               for part in p.relative_to(root / folder).parts))
            for path in files[:MAX_FILES]:
                found = submission_fingerprints(path)
                if found:
                    prints.update(h for hashes in found.values() for h in hashes)
                    name = f"{folder}/{path.relative_to(root / folder).as_posix()}"
                    if name not in shown:
                        shown.append(name)
    return sorted(prints), shown
