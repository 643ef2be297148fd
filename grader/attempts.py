"""Which attempt this is, for feedback that opens after N attempts (docs/spec.md, "Feedback that
opens in steps"): Gradescope's count of earlier submissions, the command line's `--attempt N`
(`VITGRADE_ATTEMPT`), or on a student's own machine a local count per submission.

The local count is a learning aid, not a control: it lives in the student's cache
(`$XDG_CACHE_HOME/vitgrade/attempts.json`, else `~/.cache/...`), one number per submission, and
`--attempt 1` (or deleting the file) starts it again.
"""
from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path

METADATA = "submission_metadata.json"  # Gradescope's, in its root (/autograder)
COUNTS = "attempts.json"


def gradescope_attempt(root: Path) -> tuple[int | None, str | None]:
    """(this attempt's number, the assignment's due date) from Gradescope's submission metadata:
    its earlier submissions plus this one; (None, None) for what it does not say."""
    try:
        data = json.loads((Path(root) / METADATA).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None, None
    if not isinstance(data, dict):
        return None, None
    previous = data.get("previous_submissions")
    assignment = data.get("assignment") if isinstance(data.get("assignment"), dict) else {}
    due = assignment.get("due_date")
    return (len(previous) + 1 if isinstance(previous, list) else None,
            due if isinstance(due, str) else None)


def counted(settings, exercises):
    """`settings` with this attempt's number, counted locally when the run is on a student's
    own machine (platform `local`), some check opens feedback with attempts and no platform
    gave the number (a given one, `--attempt 1`, is stored: the count starts again there)."""
    if settings.platform != "local" or not _counts_attempts(exercises):
        return settings
    key = settings.attempt_key or (str(Path(settings.student).absolute())
                                   if settings.student else None)
    if key is None:
        return settings
    return replace(settings, attempt=local_attempt(key, settings.attempt))


def local_attempt(key: str, given: int | None = None, environ=None) -> int:
    """The next number of `key`'s local count (or `given`), stored; an unwritable cache only
    means the count does not go on."""
    environ = os.environ if environ is None else environ
    folder = Path(environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "vitgrade"
    path = folder / COUNTS
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        data = {}
    data = data if isinstance(data, dict) else {}
    last = data.get(key)
    number = given or (last + 1 if isinstance(last, int) and last > 0 else 1)
    data[key] = number
    try:
        folder.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{COUNTS}.{os.getpid()}")
        temporary.write_text(json.dumps(data, indent=1), encoding="utf-8")
        os.replace(temporary, path)
    except OSError:
        pass
    return number


def _counts_attempts(exercises) -> bool:
    rules = [e.opens for e in exercises] + [c.opens for e in exercises for c in e.checks]
    return any("attempts" in rule for opens in rules if opens for rule in opens.values())
