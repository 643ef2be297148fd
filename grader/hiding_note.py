"""The one line `--verbose` prints about hiding the grader's secrets from student code.

It repeats what the worker reported on loading (worker/hiding.py): a hostile submission could
change that report, never what was mounted before it ran, so the line informs, it proves nothing.
"""
from __future__ import annotations

NOT_HIDDEN = "secrets are not hidden from student code"
VIEW = "student code sees only a file system of its own, without network"
PERMISSIONS = "secrets are hidden from student code by file permissions only"
# namespaces of the worker's own beside the view, each with what the worker's reason says when
# it is not (worker/hiding.py)
OWN = {"processes": "its processes", "System V IPC": "System V IPC", "host name": "the host name"}


def hiding_note(hiding) -> str:
    """`hiding`: a grader.worker.outcomes.Hiding, or None when no worker reported one."""
    if hiding is None:
        return f"{NOT_HIDDEN}: no worker ran"
    if hiding.mechanism == "permissions":
        readable = (f"its user can still read {', '.join(hiding.readable)}" if hiding.readable
                    else "its user can read none of them")
        return (f"{PERMISSIONS} ({hiding.reason}; the network, /tmp and the process table are "
                f"the host's; its own session keyring; what its user leaves in the host's System "
                f"V IPC is removed when it ends): {readable}")
    if hiding.mechanism != "view":
        return f"{NOT_HIDDEN}: {hiding.reason}"
    note = f"{VIEW}: its working folder, {', '.join(hiding.seen)}"
    own = [what for what, refused in OWN.items() if refused not in hiding.reason]
    note += f"; its own {', '.join([*own, 'session keyring'])}"
    if hiding.reason:  # the view holds, but something beside it was refused
        note += f"; {hiding.reason}"
    if hiding.hidden:
        note += f"; covered in it: {', '.join(hiding.hidden)}"
    if hiding.kept:
        note += f"; left visible (they hold the submission): {', '.join(hiding.kept)}"
    return note
