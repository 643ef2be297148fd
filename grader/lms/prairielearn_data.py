"""Whose submission a PrairieLearn external grader grades: PrairieLearn writes the question's
`data` object to /grade/data/data.json (its docs/externalGrading.md, "The Grading Process"),
whose `variant_seed` is the variant PrairieLearn gave this student. It is the student id of
`--prairielearn` when none is given, so each PrairieLearn variant grades one of ours
(docs/lms.md, "PrairieLearn")."""
from __future__ import annotations

import json
from pathlib import Path

DATA_JSON = Path("/grade/data/data.json")


def prairielearn_student_id(path: Path | None = None) -> str | None:
    """'pl-<variant_seed>' from PrairieLearn's data.json (default DATA_JSON); None where there
    is none to read."""
    try:
        seed = json.loads((path or DATA_JSON).read_text(encoding="utf-8")).get("variant_seed")
    except (OSError, UnicodeDecodeError, ValueError, AttributeError):
        return None
    return f"pl-{seed}"[:200] if isinstance(seed, (str, int)) and str(seed) else None
