"""Hiding the grader's secrets from the worker: a mount namespace of its own, covered where told.

As root (a Gradescope or PrairieLearn container, CI), before it drops privileges, the worker
unshares its mount namespace, makes every mount in it private (nothing it mounts reaches the
grader), and covers each path of its request's "hide" list (grader/secret_paths.py decides what is
secret): an empty read-only tmpfs over a folder, /dev/null over a file. What the worker needs
stays: its working folder, the submission's folder and the folders of sys.path are bound back
where a covered folder holds them (and a secret inside those is covered again). The mounts
belong to root's namespace: student code, an unprivileged user by then, can neither unmount them
nor, in a user namespace of its own, take them apart (the kernel locks them together).

Where that cannot be done (not root, not Linux, unshare refused by a container's seccomp filter)
nothing changes; `report()` says why, and what was hidden otherwise (the load report carries it).
"""

from __future__ import annotations

import functools
import os
import sys

from grader.worker import linux

TMPFS_OPTIONS = "mode=0755,size=16k,nr_inodes=256"  # room for the kept folders' mount points
READ_ONLY = linux.MS_RDONLY | linux.MS_NOSUID | linux.MS_NODEV | linux.MS_NOEXEC

_outcome: dict = {"hidden": [], "kept": [], "failed": [], "reason": "hiding was not tried"}


def report() -> dict:
    """What the last `hide` did: {"hidden", "kept" (secrets left visible: they hold what the
    worker needs), "failed", "reason" (why nothing was hidden, else "")}, for the load report."""
    return {key: list(value) if type(value) is list else value for key, value in _outcome.items()}


def hide(paths: list[str], keep: list[str]) -> dict:
    """Cover every existing path of `paths` (resolved, as grader/secret_paths.py sends them) in a
    mount namespace of this process's own, leaving the folders of `keep` (and what Python
    imports from) visible -> report()."""
    global _outcome
    _outcome = _hide(paths, keep)
    return report()


def _hide(paths: list[str], keep: list[str]) -> dict:
    outcome = {"hidden": [], "kept": [], "failed": [], "reason": ""}
    if not linux.LINUX:
        return {**outcome, "reason": "not on Linux"}
    if os.geteuid() != 0:
        return {**outcome, "reason": "not running as root"}
    if not paths:
        return {**outcome, "reason": "the grader asked to hide nothing"}
    secrets = [path for path in dict.fromkeys(paths) if path != "/" and os.path.lexists(path)]
    if not secrets:
        return {**outcome, "reason": "none of the paths to hide exists"}
    kept = list(dict.fromkeys([*_folders(keep), *import_folders()]))
    try:  # to come back to if the covers cannot be made with what the worker needs
        original = os.open("/proc/self/ns/mnt", os.O_RDONLY | os.O_CLOEXEC)
    except OSError as exc:
        return {**outcome, "reason": f"no /proc/self/ns/mnt ({exc.strerror})"}
    try:
        try:
            linux.unshare(linux.CLONE_NEWNS)
        except OSError as exc:
            return {**outcome, "reason": f"unshare(CLONE_NEWNS) refused: {exc.strerror}"}
        try:
            linux.mount(None, "/", None, linux.MS_REC | linux.MS_PRIVATE)  # nothing leaks out
            _cover(secrets, kept, outcome)
        except OSError as exc:  # what the worker needs could not be kept: hide nothing
            linux.setns(original, linux.CLONE_NEWNS)
            where = f" ({exc.filename})" if exc.filename else ""
            return {**outcome, "hidden": [], "failed": [],
                    "reason": f"the mounts failed{where}: {exc.strerror}"}
    finally:
        os.close(original)
    return outcome


@functools.cache
def import_folders() -> tuple[str, ...]:
    """The folders of sys.path, resolved: asked once by the zygote, inherited by its workers."""
    return tuple(_folders(sys.path))


def _folders(paths) -> list[str]:
    """Each existing folder of `paths`, resolved (as the grading side resolves the secrets)."""
    resolved = [os.path.realpath(path or ".") for path in paths]
    return [path for path in resolved if os.path.isdir(path)]


def _under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def _cover(secrets: list[str], kept: list[str], outcome: dict) -> None:
    """Shallowest first: a secret is covered unless a covered folder already hides it; a kept
    folder under a covered one is bound back from a descriptor opened before; a secret under
    that, covered again. A secret that cannot be covered is told; a kept folder, raised."""
    # opened in this namespace (a bind's source must be a mount of it), before anything covers it
    sources = {path: os.open(path, os.O_PATH | os.O_DIRECTORY | os.O_CLOEXEC) for path in kept}
    try:
        _cover_in_order(secrets, sources, outcome)
    finally:
        for fd in sources.values():
            os.close(fd)


def _cover_in_order(secrets: list[str], sources: dict[str, int], outcome: dict) -> None:
    entries = sorted([(path, True) for path in secrets if path not in sources]
                     + [(path, False) for path in sources], key=lambda e: e[0].count("/"))
    outcome["kept"] = [path for path in secrets if path in sources]
    done: list[tuple[str, bool]] = []  # (path, covered), deepest last
    to_seal: list[str] = []
    for path, secret in entries:
        nearest = next((c for p, c in reversed(done) if _under(path, p)), False)
        if secret and not nearest:
            try:
                if _cover_one(path, [k for k in sources if k != path and _under(k, path)]):
                    to_seal.append(path)
            except OSError as exc:
                outcome["failed"].append(f"{path}: {exc.strerror}")
                continue
            outcome["hidden"].append(path)
        elif not secret and nearest:  # it is needed, and something above covers it
            linux.mount(f"/proc/self/fd/{sources[path]}", path, None,
                        linux.MS_BIND | linux.MS_REC)
        done.append((path, secret))
    for path in to_seal:
        linux.mount(None, path, None, linux.MS_REMOUNT | READ_ONLY)


def _cover_one(path: str, kept_below: list[str]) -> bool:
    """Cover `path`: a file with /dev/null, a folder with an empty tmpfs, read-only at once
    unless the mount points of `kept_below` must be made in it first (-> True: seal it later)."""
    if not os.path.isdir(path):
        linux.mount("/dev/null", path, None, linux.MS_BIND)
        return False
    flags = linux.MS_NOSUID | linux.MS_NODEV | linux.MS_NOEXEC
    linux.mount("vitgrade-hidden", path, "tmpfs", flags | (0 if kept_below else linux.MS_RDONLY),
                TMPFS_OPTIONS)
    for folder in kept_below:
        os.makedirs(folder, exist_ok=True)
    return bool(kept_below)
