"""Where the grading server listens, when it may be used, and how a stale one is recognised.

Standard library only, and cheap: the client runs this before anything else is imported.
"""
from __future__ import annotations

import os
import stat
import sys
import zlib

# VITGRADE_SERVER=0/off/no/false: never use or start a server; 1/on/yes/true: start one even
# without a terminal
SERVER_VARIABLE = "VITGRADE_SERVER"
RUNTIME_VARIABLE = "VITGRADE_RUNTIME_DIR"  # where the socket lives (default: $XDG_RUNTIME_DIR/vitgrade)
IDLE_VARIABLE = "VITGRADE_SERVER_IDLE"  # seconds without a request before the server exits
DEFAULT_IDLE_SECONDS = 15 * 60
# One-shot platforms: a server there could only cost time, and would outlive the grading.
ONE_SHOT_FLAGS = ("--gradescope", "--classroom", "--prairielearn")
PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # the `grader` folder
_FINGERPRINTED = (".py", ".json", ".yaml", ".yml")


def wanted(argv: list[str], environ=None) -> bool:
    """True when `vitgrade` with `argv` may be served (and may start a server afterwards)."""
    environ = os.environ if environ is None else environ
    if environ.get(SERVER_VARIABLE, "").strip().lower() in ("0", "off", "no", "false"):
        return False
    if environ.get("CI") or not sys.platform.startswith("linux") or not hasattr(os, "fork"):
        return False
    if not argv or argv[0] != "grade" or any(a in ("-h", "--help") for a in argv):
        return False
    return not any(a.split("=", 1)[0] in ONE_SHOT_FLAGS for a in argv)


def should_start(environ=None, interactive: bool = False) -> bool:
    """Whether a local run leaves a server behind: for a person at a terminal (`interactive`),
    or when VITGRADE_SERVER=1 asks (an editor's "grade" button); never for scripts and
    autograders otherwise, where a process outliving the command would be a surprise."""
    environ = os.environ if environ is None else environ
    return interactive or environ.get(SERVER_VARIABLE, "").strip().lower() in ("1", "on", "yes", "true")


def runtime_dir(environ=None) -> str:
    """The user's private folder for the socket: created 0700, and refused if anyone else could
    reach into it (ValueError), since the socket hands this user's terminal over."""
    environ = os.environ if environ is None else environ
    base = environ.get(RUNTIME_VARIABLE)
    if not base:
        xdg = environ.get("XDG_RUNTIME_DIR")
        base = os.path.join(xdg, "vitgrade") if xdg else os.path.join("/tmp", f"vitgrade-{os.getuid()}")
    try:
        os.mkdir(base, 0o700)
    except FileExistsError:
        pass
    info = os.lstat(base)
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
        raise ValueError(f"{base} is not a private folder of this user")
    return base


def socket_path(environ=None) -> str:
    """One server per user, Python and vit-grader install."""
    key = zlib.crc32(f"{sys.executable}\0{PACKAGE}".encode())  # a name, not a secret: no hashlib to import
    return os.path.join(runtime_dir(environ), f"grade-{key:08x}.sock")


def fingerprint() -> str:
    """What the server's answers depend on: this Python, the grader's files (size and mtime) and
    the folders packages are imported from (installing or removing a package changes them).
    Compared whole (a few KB), so no hash can collide."""
    parts = [f"{sys.executable}\0{sys.version}\n"]
    for folder, dirs, files in os.walk(PACKAGE):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if name.endswith(_FINGERPRINTED):
                info = os.stat(os.path.join(folder, name))
                parts.append(f"{folder}/{name}\0{info.st_size}\0{info.st_mtime_ns}\n")
    for entry in sys.path[1:]:  # [0] is the script's folder or the working folder: not the install
        try:
            parts.append(f"{entry}\0{os.stat(entry or '.').st_mtime_ns}\n")
        except OSError:
            parts.append(f"{entry}\0-\n")
    return "".join(parts)
