"""The one line `--verbose` prints about hiding the grader's secrets from student code.

It repeats what the worker reported on loading (worker/hiding.py): a hostile submission could
change that report, never what was mounted before it ran, so the line informs, it proves nothing.
"""
from __future__ import annotations

NOT_HIDDEN = "secrets are not hidden from student code"


def hiding_note(hiding) -> str:
    """`hiding`: a grader.worker.outcomes.Hiding, or None when no worker reported one."""
    if hiding is None:
        return f"{NOT_HIDDEN}: no worker ran"
    if hiding.reason:
        return f"{NOT_HIDDEN}: {hiding.reason}"
    note = f"hidden from student code: {', '.join(hiding.hidden)}"
    if hiding.kept:
        note += f"; left visible (they hold the submission or what it imports): " \
                f"{', '.join(hiding.kept)}"
    if hiding.failed:
        note += f"; could not hide: {', '.join(hiding.failed)}"
    return note
