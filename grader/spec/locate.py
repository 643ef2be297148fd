"""Where the exercises are: an explicit folder, the project being worked in, or the
course's exercises installed with the package (so `vitgrade grade x.py` works anywhere).
"""
from __future__ import annotations

from importlib import resources
from pathlib import Path

from .loader import SPEC_SUFFIXES

FOLDER = "exercises"


def find_exercises(explicit: str | Path | None = None, start: str | Path | None = None) -> Path:
    """The exercises folder to grade with.

    1. `explicit` (`--exercises DIR`), as given;
    2. the nearest `exercises/` holding spec files in `start` (default: the working folder) or in
       a parent;
    3. the exercises shipped inside the installed package.
    """
    if explicit is not None:
        return Path(explicit)
    here = Path(start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        candidate = folder / FOLDER
        if candidate.is_dir() and _has_specs(candidate):
            return candidate
    return installed_exercises()


def installed_exercises() -> Path:
    shipped = Path(str(resources.files("grader").joinpath("_exercises")))
    if shipped.is_dir() and _has_specs(shipped):
        return shipped
    # an editable install maps grader._exercises onto the checkout's exercises/
    return Path(__file__).resolve().parents[2] / FOLDER


def _has_specs(folder: Path) -> bool:
    return any(p.suffix in SPEC_SUFFIXES for p in folder.iterdir())
