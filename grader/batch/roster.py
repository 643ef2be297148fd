"""`grade-all --roster CSV`: whose each entry of the class folder is, when its name does not say
(an LMS export named by submission number, two files of one student). The CSV has a header with
an `entry` column (a file or folder name in SUBMISSIONS_DIR, with or without its suffix, or what
--id-pattern takes from it) and an `id` column (the student's id: their variants, their record).
Entries that map to one id are one student: the newer is graded.
"""
from __future__ import annotations

import csv
from pathlib import Path

ENTRY, ID = "entry", "id"


class RosterError(ValueError):
    """A roster that cannot be read: `file:line: what is wrong`."""


def read_roster(path: str | Path) -> dict[str, str]:
    """{entry: student id} from the CSV `path`; RosterError naming the file and line."""
    try:
        with open(path, newline="", encoding="utf-8-sig") as handle:
            rows = list(csv.reader(handle))
    except (OSError, UnicodeDecodeError, csv.Error) as error:
        raise RosterError(f"{path}: cannot read the roster: {error}") from None
    header = [cell.strip().lower() for cell in rows[0]] if rows else []
    if ENTRY not in header or ID not in header:
        raise RosterError(f"{path}:1: the roster's first line names its columns, with '{ENTRY}' "
                          f"(a file or folder of the class) and '{ID}' (the student's id)")
    at, to = header.index(ENTRY), header.index(ID)
    roster: dict[str, str] = {}
    for line, row in enumerate(rows[1:], 2):
        if not any(cell.strip() for cell in row):
            continue
        entry, student = (row[i].strip() if i < len(row) else "" for i in (at, to))
        if not entry or not student:
            raise RosterError(f"{path}:{line}: an entry and an id on every line")
        if roster.setdefault(entry, student) != student:
            raise RosterError(f"{path}:{line}: {entry} is listed twice, for {roster[entry]} "
                              f"and {student}")
    return roster


def rostered(roster: dict[str, str], name: str, text: str | None) -> str | None:
    """The id `roster` gives the entry called `name` (whose --id-pattern text is `text`)."""
    for key in (name, Path(name).stem, text):
        if key and key in roster:
            return roster[key]
    return None
