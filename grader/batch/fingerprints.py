"""What a record was graded from: the submission's bytes, the specs, the grader (each function
says what it hashes). A re-run reuses a record only when all three are unchanged (grade_all.py),
and merge.py never mixes versions. `code_fingerprints`: the graded file's student-API functions,
for the class report's similar code (grader/similarity/code.py; parsed, never run).
"""
from __future__ import annotations

import functools
import hashlib
import os
import stat
from pathlib import Path

from grader.checks.variants import SECRET_FILE

from .discover import folder_entries

PACKAGE = "vit-grader"
SKIPPED_DIRS = {"__pycache__", ".ipynb_checkpoints"}
CHUNK = 1 << 20


def submission_sha256(path: str | Path) -> str:
    """The graded file's bytes; what is not a regular file is hashed as what it is (a link is
    graded as itself and refused; a folder with no .py or .ipynb gets no grade; a FIFO or a
    device is never read: opened without blocking, it is hashed as its kind)."""
    path = Path(path)
    if path.is_symlink():
        return _sha256(b"link:" + os.fsencode(os.readlink(path)))
    if path.is_dir():
        names = sorted(p.relative_to(path).as_posix() for p in folder_entries(path))
        return _sha256(b"folder:" + "\n".join(names).encode("utf-8", "surrogateescape"))
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
    except OSError as error:
        return _sha256(f"unreadable: {error.strerror}".encode())
    with open(fd, "rb") as stream:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            return _sha256(f"not a file: {stat.filemode(mode)}".encode())
        return hashlib.file_digest(stream, "sha256").hexdigest()


def specs_sha256(folder: str | Path) -> str:
    """Every file under `folder` (hidden and cache entries aside, but the course secret: it
    picks the variants): name, size and bytes."""
    folder = Path(folder)
    digest = hashlib.sha256()
    files = [p for p in folder.rglob("*") if p.is_file() and (p.name == SECRET_FILE or not any(
        part.startswith(".") or part in SKIPPED_DIRS for part in p.relative_to(folder).parts))]
    for path in sorted(files, key=lambda p: p.relative_to(folder).as_posix()):
        name = path.relative_to(folder).as_posix().encode("utf-8", "surrogateescape")
        digest.update(b"%d:%s:%d:" % (len(name), name, path.stat().st_size))
        with open(path, "rb") as stream:
            while block := stream.read(CHUNK):
                digest.update(block)
    return digest.hexdigest()


def graded_with(settings, exercises=(), specs: str | None = None) -> str:
    """What a record was graded from besides the submission: the specs (specs_sha256, else
    `specs`: hashed before they were loaded), the command line's feedback level and which
    `opens:` steps of `exercises` are open (an attempt given, a date passed): each changes what a
    record says, so a record of another is graded again, as after a change of the specs."""
    found = specs_sha256(settings.exercises) if specs is None else specs
    if settings.feedback_level:
        found += f"+feedback={settings.feedback_level}"
    steps = settings.opening_state(exercises)
    return f"{found}+steps={steps}" if steps else found


@functools.cache
def grader_version() -> str:
    """`<package version>+<sha256 of grader/**/*.py, first 16 hex digits>`, once per process."""
    from importlib import metadata

    try:
        version = metadata.version(PACKAGE)
    except metadata.PackageNotFoundError:
        version = "unknown"
    package = Path(__file__).resolve().parents[1]
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*.py"), key=lambda p: p.relative_to(package).as_posix()):
        if SKIPPED_DIRS.isdisjoint(path.relative_to(package).parts):
            digest.update(path.relative_to(package).as_posix().encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return f"{version}+{digest.hexdigest()[:16]}"


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def code_fingerprints(path: str | Path, exercises: str | Path | None = None
                      ) -> dict[str, list[int]] | None:
    """The student-API functions of the file graded for `path` (a folder: the file chosen in
    it), or None when no code could be read. Never raises: whatever the student's file is (a
    notebook nested 200,000 deep, a FIFO, garbage) costs only its own fingerprints."""
    from grader.checks.api import student_api  # the student API's names (and the course's)
    from grader.settings import student_file
    from grader.similarity.code import submission_fingerprints

    try:
        names = student_api(exercises).signatures
        return submission_fingerprints(student_file(Path(path)), names)
    except Exception:  # noqa: BLE001 - a hostile file: not compared, never the job's end
        return None
