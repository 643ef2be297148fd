"""Where the exercises are: an explicit folder, the project being worked in, or the course's
exercises installed with the package (so `vitgrade grade x.py` works anywhere).

Discovery (the project's `exercises/`) is for people at their desks, and takes only a folder
nobody else could have put there; autograding modes never discover, as a student's repository
may hold an `exercises/` of its own (docs/security.md, "Specs come only from where the
instructor put them").
"""
from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from .parse import SPEC_SUFFIXES

FOLDER = "exercises"
EXPLICIT, FOUND, INSTALLED = "--exercises", "found in this project", "installed with the package"


@dataclass(frozen=True)
class ExercisesFolder:
    """The folder of specs a run grades with, and how it was found."""
    path: Path
    origin: str  # EXPLICIT | FOUND | INSTALLED

    def __str__(self) -> str:
        return f"{self.path} ({self.origin})"


def locate_exercises(explicit: str | Path | None = None, start: str | Path | None = None, *,
                     discover: bool = True) -> ExercisesFolder:
    """The exercises folder to grade with, and where it came from: `explicit` as given, else
    (when `discover`) the nearest trusted `exercises/` holding specs in `start` (default: the
    working folder) or a parent, else the exercises installed with the package."""
    if explicit is not None:
        return ExercisesFolder(Path(explicit), EXPLICIT)
    if discover:
        here = Path(start or Path.cwd()).resolve()
        for folder in (here, *here.parents):
            if _world_writable(folder):  # anyone could have made what is here and above
                break
            candidate = folder / FOLDER
            if candidate.is_dir() and _trusted(candidate) and _has_specs(candidate):
                return ExercisesFolder(candidate, FOUND)
    return ExercisesFolder(installed_exercises(), INSTALLED)


def find_exercises(explicit: str | Path | None = None, start: str | Path | None = None, *,
                   discover: bool = True) -> Path:
    """The path of `locate_exercises(...)`."""
    return locate_exercises(explicit, start, discover=discover).path


def installed_exercises() -> Path:
    """The specs a wheel ships in `grader/_exercises` (the package is files on disk: the worker
    and the zygote run it from there; importlib.resources would cost ~10 ms of every run)."""
    shipped = Path(__file__).resolve().parents[1] / "_exercises"
    if shipped.is_dir() and _has_specs(shipped):
        return shipped
    # an editable install maps grader._exercises onto the checkout's exercises/
    return Path(__file__).resolve().parents[2] / FOLDER


def _world_writable(folder: Path) -> bool:
    try:
        return bool(folder.stat().st_mode & stat.S_IWOTH)
    except OSError:
        return True


def _trusted(folder: Path) -> bool:
    """Owned by this user or root, and not world-writable (a symbolic link: its target)."""
    try:
        info = folder.stat()
    except OSError:
        return False
    return info.st_uid in (0, os.geteuid()) and not info.st_mode & stat.S_IWOTH


def _has_specs(folder: Path) -> bool:
    return any(p.suffix in SPEC_SUFFIXES for p in folder.iterdir())
