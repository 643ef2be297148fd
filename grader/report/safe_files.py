"""Writing results where a submission may have planted links: no write ever goes through one.

A results path is taken literally: each folder of it is opened (or made) one name at a time
with O_NOFOLLOW, a folder that is a symlink is refused (`UnsafePathError`), and the file is
written as a new temporary name in the checked folder, then renamed over the final name, which
is never opened for writing (docs/security.md, "Results files are never written through a link").
"""
from __future__ import annotations

import os
import stat
from contextlib import contextmanager, suppress
from pathlib import Path

_DIRECTORY = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


class UnsafePathError(OSError):
    """A results path that goes through a symlink (or a non-folder) where a folder should be."""


@contextmanager
def checked_folder(path: str | Path, writing: str | Path | None = None):
    """An fd of folder `path`, each missing folder made, no component a symlink; closed after.
    `writing`: the file it is for, named in the error."""
    fd = _open_folder(Path(path), Path(writing or path))
    try:
        yield fd
    finally:
        os.close(fd)


def make_folder(path: str | Path) -> Path:
    """Make folder `path` and its missing parents as `checked_folder` does; returns `path`."""
    with checked_folder(path):
        return Path(path)


def write_file_safely(path: str | Path, data: bytes, suffix: str = ".tmp") -> None:
    """Write `data` to a temporary name in `path`'s checked folder, then rename it to `path`."""
    path = Path(path)
    name = _final_name(path)
    with checked_folder(path.parent, path) as folder:
        tmp = f".tmp-{os.urandom(8).hex()}{suffix}"  # secrets.token_hex, without its imports
        fd = os.open(tmp, _NEW_FILE, 0o600, dir_fd=folder)
        try:
            try:
                os.fchmod(fd, 0o644)  # not left to the umask: results are read by others (CI, LMS)
                view = memoryview(data)
                while view:
                    view = view[os.write(fd, view):]
            finally:
                os.close(fd)
            os.replace(tmp, name, src_dir_fd=folder, dst_dir_fd=folder)
        except BaseException:
            with suppress(OSError):
                os.unlink(tmp, dir_fd=folder)
            raise


def open_for_append(path: str | Path):
    """`path` opened to append bytes (made if missing), refused if it or a folder is a link."""
    path = Path(path)
    name = _final_name(path)
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC
    with checked_folder(path.parent, path) as folder:
        try:
            fd = os.open(name, flags, 0o644, dir_fd=folder)
        except OSError as error:
            if _is_link(name, folder):
                raise _refused(path, path) from error
            raise
    return os.fdopen(fd, "ab")


def _open_folder(path: Path, writing: Path) -> int:
    start = "/" if path.is_absolute() else "."
    fd = os.open(start, _DIRECTORY)
    walked = Path(start)
    try:
        for name in path.parts[1:] if path.is_absolute() else path.parts:
            walked = walked / name
            next_fd = _open_or_make(name, fd, walked, writing)
            os.close(fd)
            fd = next_fd
    except BaseException:
        os.close(fd)
        raise
    return fd


def _open_or_make(name: str, parent: int, walked: Path, path: Path) -> int:
    for _ in range(10):  # another job may make the same folder at the same moment
        try:
            return os.open(name, _DIRECTORY, dir_fd=parent)
        except FileNotFoundError:
            with suppress(FileExistsError):
                os.mkdir(name, dir_fd=parent)
        except OSError as error:  # ELOOP: a symlink; ENOTDIR: a file
            if _is_link(name, parent):
                raise _refused(walked, path) from error
            raise UnsafePathError(f"refusing to write {path}: {walked} is not a folder") from error
    raise UnsafePathError(f"{walked} keeps changing (writing {path})")


def _is_link(name: str, parent: int) -> bool:
    try:
        return stat.S_ISLNK(os.lstat(name, dir_fd=parent).st_mode)
    except OSError:
        return False


def _refused(link: Path, path: Path) -> UnsafePathError:
    return UnsafePathError(
        f"refusing to write {path}: {link} is a symbolic link, and results are never written "
        f"through one (a submission could have planted it). Remove the link, or give the real "
        f"path it points to (realpath {link}) if you made it yourself.")


def _final_name(path: Path) -> str:
    name = path.name
    if name in ("", ".", ".."):
        raise UnsafePathError(f"{path} names a folder, not a results file")
    return name
